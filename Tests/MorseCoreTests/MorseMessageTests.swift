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
    ("<SK", MorseError.unclosedProsign(line: 1, column: 1)),
    ("ab <SK\n>", .unclosedProsign(line: 1, column: 4)),
    ("<S K", .unclosedProsign(line: 1, column: 1)),
    ("x\n  <>", .emptyProsign(line: 2, column: 3)),
    ("<S K>", .invalidProsignCharacter(UnsendableCharacter(character: " ", line: 1, column: 3))),
    ("a <S1>", .invalidProsignCharacter(UnsendableCharacter(character: "1", line: 1, column: 5))),
    ("<SЖ>", .invalidProsignCharacter(UnsendableCharacter(character: "Ж", line: 1, column: 3))),
    ("a > b", .unsendable(UnsendableCharacter(character: ">", line: 1, column: 3))),
  ])
  func malformedProsignIsRejected(text: String, expected: MorseError) {
    #expect(morseError { _ = try MorseMessage(text) } == expected)
  }

  @Test func prosignErrorsExplainTheFix() {
    let empty = MorseError.emptyProsign(line: 1, column: 1).description
    #expect(empty.contains("<SK>"))
    let unclosed = MorseError.unclosedProsign(line: 3, column: 7).description
    #expect(unclosed.contains("line 3, column 7"))
    #expect(unclosed.contains("'>'"))
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

  @Test func skipPolicyDropsTheBracketOfAMalformedProsign() throws {
    let message = try MorseMessage("a < b> <>", unknownCharacters: .skip)
    #expect(tokens(message) == [".-", "/", "-..."])
    #expect(message.skipped.map(\.character) == ["<", ">", "<", ">"])
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
