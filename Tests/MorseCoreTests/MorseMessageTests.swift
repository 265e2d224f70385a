import MorseTestSupport
import Testing

@testable import MorseCore

/// The tokens of a message as short strings: a code, or "/" for a word gap.
private func tokens(_ message: MorseMessage) -> [String] {
  message.map { token in
    switch token {
    case .symbol(let symbol): symbol.code.description
    case .wordGap: "/"
    }
  }
}

/// The texts of the symbols of a message, in order.
private func symbolTexts(_ message: MorseMessage) -> [String] {
  message.compactMap { token in
    if case .symbol(let symbol) = token { return symbol.text }
    return nil
  }
}

@Suite struct MorseMessageTests {
  @Test(arguments: [
    ("SOS", "... --- ..."),
    ("Hello, world", ".... . .-.. .-.. --- --..-- / .-- --- .-. .-.. -.."),
    ("2%", "..--- -....- ----- -..-. -----"),
    ("1/2%", ".---- -..-. ..--- -....- ----- -..-. -----"),
    ("2‰", "..--- -....- ----- -..-. ----- -----"),
    ("%", "----- -..-. -----"),
    ("2 %", "..--- / ----- -..-. -----"),
    ("4½%", "....- -....- .---- -..-. ..--- -....- ----- -..-. -----"),
    ("×", "-..-"),
    ("2×3", "..--- -..- ...--"),
    ("″", ".----. .----."),
    ("′", ".----."),
    ("<SK>", "...-.-"),
    ("<sos>", "...---..."),
    ("<hh>", "........"),
    ("<Ve>", "...-."),
    ("73 <SK>", "--... ...-- / ...-.-"),
    ("x<AR>y", "-..- .-.-. -.--"),
    ("é", "..-.."),
    ("e\u{301}", "..-.."),
    ("Ä ß", ".-.- / ...--.."),
    ("a\tb\n\nc   d\r\ne", ".- / -... / -.-. / -.. / ."),
    ("  \t SOS \n ", "... --- ..."),
    ("a\u{00A0}\u{2003}b", ".- / -..."),
    ("", ""),
  ])
  func encodes(text: String, expected: String) throws {
    #expect(try MorseMessage(text).encoded == expected)
  }

  @Test func substitutionSymbolsCarryTheOriginalCharacter() throws {
    #expect(try symbolTexts(MorseMessage("2%")) == ["2", "%", "%", "%", "%"])
    #expect(try symbolTexts(MorseMessage("×″")) == ["×", "″", "″"])
    #expect(try symbolTexts(MorseMessage("<sk>s")) == ["<SK>", "s"])
    #expect(try symbolTexts(MorseMessage("e\u{301}")) == ["é"])
  }

  @Test(arguments: [
    "SOS", " a  b ", "\n\na\n", "a € b", "€ a €€ b €", "a<SK> b", "€", "  ", "a\t\t\tb",
  ])
  func wordGapsAreNeverFirstLastOrDoubled(text: String) throws {
    let found = tokens(try MorseMessage(text, unknownCharacters: .skip))
    #expect(found.first != "/")
    #expect(found.last != "/")
    #expect(!zip(found, found.dropFirst()).contains { $0 == "/" && $1 == "/" })
  }

  @Test func iteratesAgainWithTheSameTokens() throws {
    let message = try MorseMessage("Hello, world 2% <SK>")
    #expect(Array(message) == Array(message))
  }

  @Test func unsendableCharacterIsRejectedWithItsPosition() throws {
    let thrown = morseError { _ = try MorseMessage("ab\nxy€z") }
    let expected = UnsendableCharacter(character: "€", line: 2, column: 3)
    #expect(thrown == .unsendable(expected))
    let description = try #require(thrown).description
    #expect(description.contains("'€'"))
    #expect(description.contains("U+20AC"))
    #expect(description.contains("line 2, column 3"))
    // The command line adds its own advice (--skip-unknown): the library names no option.
    #expect(!description.contains("--"))
  }

  @Test func positionsCountFromTheFirstLineAndTreatCRLFAsOneBreak() {
    let thrown = morseError { _ = try MorseMessage("ab\r\n😀", firstLine: 5) }
    #expect(thrown == .unsendable(UnsendableCharacter(character: "😀", line: 6, column: 1)))
  }

  @Test func columnsCountCharactersNotScalars() {
    let thrown = morseError { _ = try MorseMessage("e\u{301}e\u{301}€") }
    #expect(thrown == .unsendable(UnsendableCharacter(character: "€", line: 1, column: 3)))
  }

  @Test func descriptionListsEveryScalarOfACluster() {
    let character = UnsendableCharacter(character: "q\u{308}", line: 1, column: 5)
    #expect(character.description == "'q\u{308}' (U+0071 U+0308) at line 1, column 5")
    let thrown = morseError { _ = try MorseMessage("q\u{308}") }
    #expect(thrown == .unsendable(UnsendableCharacter(character: "q\u{308}", line: 1, column: 1)))
  }

  @Test func invisibleCharactersAreNamedByCode() {
    let character = UnsendableCharacter(character: "\u{7}", line: 1, column: 1)
    #expect(character.description == "an invisible character (U+0007) at line 1, column 1")
  }

  @Test(arguments: [
    ("<SK", "(SK"), ("ab <SK\n>", "ab (SK\n)"), ("<>", "()"), ("<S K>", "(S K)"),
    ("a <S1>", "a (S1)"), ("a > b", "a ) b"), ("<3", "(3"), ("->", "-)"),
  ])
  func anglesAreBracketsWhereTheyEncloseNoProsign(text: String, sameAs: String) throws {
    // Before: every one of these was an error (exit 65).
    #expect(try MorseMessage(text).encoded == MorseMessage(sameAs).encoded)
  }

  @Test func anglesAroundLettersStayProsigns() throws {
    #expect(try MorseMessage("<SK>").encoded == "...-.-")
    #expect(try MorseMessage("<sos>x").encoded == "...---... -..-")
  }

  @Test func everyPrintableASCIICharacterCanBeSent() throws {
    let printable = String((0x20...0x7E).map { Character(UnicodeScalar(UInt8($0))) })
    let message = try MorseMessage(printable)
    #expect(message.skippedCount == 0)
    #expect(!message.encoded.isEmpty)
  }

  @Test(arguments: [
    "Nov 22 09:12:01 host systemd[1]: Started session-4.scope - Session 4 of User pi.",
    "[    2.345678] usb 1-1: new high-speed USB device number 2 using xhci_hcd",
    "2026-11-22 09:00:01 status half-configured libc6:amd64 2.36-9+deb12u4",
    "~/src $ ls | grep `x` *.txt #x ^C {a,b} \\n <stdin> a->b 100% <SK>",
  ])
  func realLogAndShellLinesEncodeWithoutOptions(line: String) throws {
    #expect(try MorseMessage(line).skippedCount == 0)
  }

  @Test(arguments: [
    ("[", "("), ("]", ")"), ("{", "("), ("}", ")"), ("<", "("), (">", ")"), ("*", "X"),
    ("#", "NR"), ("|", "/"), ("\\", "/"), ("~", "-"), ("^", "'"), ("`", "'"),
  ])
  func asciiSubstitutionsAreSentAsDocumented(character: String, sentAs: String) throws {
    #expect(try MorseMessage(character).encoded == MorseMessage(sentAs).encoded)
  }

  @Test func skipPolicyDropsAndReportsCharacters() throws {
    let message = try MorseMessage("a€b 😀 c", unknownCharacters: .skip)
    #expect(tokens(message) == [".-", "-...", "/", "-.-."])
    #expect(
      message.skipped == [
        UnsendableCharacter(character: "€", line: 1, column: 2),
        UnsendableCharacter(character: "😀", line: 1, column: 5),
      ])
    #expect(message.skippedCount == 2)
    #expect(!message.isEmpty)
  }

  @Test func aMalformedProsignIsSentAsBracketsNotDropped() throws {
    let message = try MorseMessage("a < b> <>", unknownCharacters: .skip)
    #expect(tokens(message) == [".-", "/", "-.--.", "/", "-...", "-.--.-", "/", "-.--.", "-.--.-"])
    #expect(message.skipped.isEmpty)
  }

  @Test func skippedListIsCappedButCountIsNot() throws {
    let message = try MorseMessage(String(repeating: "€ ", count: 25), unknownCharacters: .skip)
    #expect(message.skipped.count == MorseMessage.skippedLimit)
    #expect(message.skippedCount == 25)
    #expect(message.isEmpty)
    #expect(Array(message).isEmpty)
  }

  @Test(arguments: ["", " ", "\n\t \r\n", "😀 😀"])
  func messageWithoutSymbolsIsEmpty(text: String) throws {
    let message = try MorseMessage(text, unknownCharacters: .skip)
    #expect(message.isEmpty)
    #expect(tokens(message) == [])
  }

  @Test func messageWithASymbolIsNotEmpty() throws {
    #expect(try !MorseMessage(" a ").isEmpty)
    #expect(try !MorseMessage("<SK>").isEmpty)
  }

  @Test func largeTextIsValidatedAndIteratedLazily() throws {
    let repeats = 500_000
    let message = try MorseMessage(String(repeating: "SOS ", count: repeats))
    var symbols = 0
    var gaps = 0
    for token in message {
      switch token {
      case .symbol: symbols += 1
      case .wordGap: gaps += 1
      }
    }
    #expect(symbols == 3 * repeats)
    #expect(gaps == repeats - 1)
  }
}

@Suite struct MorseMessagePositionTests {
  @Test func aBareCarriageReturnIsNoNewLine() {
    // The line reader splits on "\n" only; counting "\r" too put errors on a line that is not.
    let thrown = morseError { _ = try MorseMessage("a\rb€", firstLine: 4) }
    #expect(thrown == .unsendable(UnsendableCharacter(character: "€", line: 4, column: 4)))
    let crlf = morseError { _ = try MorseMessage("a\r\nb€", firstLine: 4) }
    #expect(crlf == .unsendable(UnsendableCharacter(character: "€", line: 5, column: 2)))
  }

  @Test func aCombiningMarkAfterASpaceIsNotDroppedUnseen() throws {
    let thrown = morseError { _ = try MorseMessage("a \u{301}b") }
    #expect(thrown == .unsendable(UnsendableCharacter(character: " \u{301}", line: 1, column: 2)))
    let skipped = try MorseMessage("a \u{301}b", unknownCharacters: .skip)
    #expect(skipped.skippedCount == 1)
  }

  @Test func errorMessagesStaySmallWhateverTheInput() {
    let marks = "e" + String(repeating: "\u{301}", count: 100_000)
    let description = UnsendableCharacter(character: Character(marks), line: 1, column: 1)
      .description
    #expect(description.count < 200, "\(description.count) characters")
    #expect(description.contains("and 99993 more"))
    let code = String(repeating: "-.-.", count: 100_000)
    let thrown = morseError { _ = try MorseDecoder.decode(code) }
    #expect((thrown?.description.count ?? 0) < 300)
  }
}

@Suite struct MorseMessageEncodingTests {
  @Test(arguments: ["SOS", "  hello,   world  ", "<SK> 100% [ok]", "", "a\tb", "ü~é"])
  func encodingWhileValidatingGivesWhatTheLazyPassGives(text: String) throws {
    let lazy = try MorseMessage(text, unknownCharacters: .skip)
    let eager = try MorseMessage(text, unknownCharacters: .skip, encoding: true)
    #expect(eager.encoded == lazy.encoded)
    #expect(eager.skippedCount == lazy.skippedCount)
  }
}

@Suite("MorseMessage's ASCII encoding path")
struct MorseMessageASCIIPathTests {
  /// The same message encoded through the tokenizer (`encoding: false` makes `encoded` from
  /// the tokens) and in the one pass that may take the byte path.
  private func bothWays(_ text: String) throws -> (fast: String, slow: String, empty: [Bool]) {
    let fast = try MorseMessage(text, encoding: true)
    let slow = try MorseMessage(text)
    return (fast.encoded, slow.encoded, [fast.isEmpty, slow.isEmpty])
  }

  @Test(arguments: [
    "", " ", "SOS", "  sos  ", "a\tb\nc\r\nd\u{0B}e\u{0C}f", "Hello, world. 73 de N0CALL?",
    "A.B,C?D'E!F/G(H)I&J:K;L=M+N-O_P\"Q$R@S", "3/4", "50%", "a<SK>b", "x < y", "[a]", "*",
    "E E  E", "ÄB", "\u{7F}",
  ])
  func theBytePathAndTheTokenizerAgree(text: String) throws {
    guard let result = try? bothWays(text) else {
      // Then both must fail alike.
      #expect(throws: MorseError.self) { _ = try MorseMessage(text) }
      #expect(throws: MorseError.self) { _ = try MorseMessage(text, encoding: true) }
      return
    }
    #expect(result.fast == result.slow, "\(text)")
    #expect(result.empty[0] == result.empty[1])
  }

  @Test func randomASCIITextAgrees() throws {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array(" \t\nABCXYZabcxyz0123456789.,?'!/()&:;=+-_\"$@%<>[]*#~^{}|\\`")
    var compared = 0
    for _ in 0..<2000 {
      let length = Int.random(in: 0...24, using: &generator)
      let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? " " })
      guard let slow = try? MorseMessage(text, unknownCharacters: .skip) else { continue }
      let fast = try MorseMessage(text, unknownCharacters: .skip, encoding: true)
      #expect(fast.encoded == slow.encoded, "\(text)")
      #expect(fast.isEmpty == slow.isEmpty, "\(text)")
      #expect(fast.skippedCount == slow.skippedCount, "\(text)")
      compared += 1
    }
    #expect(compared == 2000)
  }

  @Test func plainTextTakesTheBytePath() {
    #expect(
      MorseMessage.encodedASCII("Hello  world")?.0 == ".... . .-.. .-.. --- / .-- --- .-. .-.. -..")
    #expect(MorseMessage.encodedASCII("  ")?.1 == false)
    // A substitution depends on its neighbours, a prosign needs its brackets, é is no ASCII.
    #expect(MorseMessage.encodedASCII("50%") == nil)
    #expect(MorseMessage.encodedASCII("<SK>") == nil)
    #expect(MorseMessage.encodedASCII("é") == nil)
  }
}
