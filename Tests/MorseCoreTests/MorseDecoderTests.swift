import MorseTestSupport
import Testing

@testable import MorseCore

@Suite struct MorseDecoderTests {
  @Test(arguments: [
    ("... --- ...", "SOS"),
    (".... . .-.. .-.. --- --..-- / .-- --- .-. .-.. -..", "HELLO, WORLD"),
    (".- / -...", "A B"),
    (".-/-...", "A B"),
    (".- /-...", "A B"),
    (".-   -...", "A B"),
    (".-\t\t\t-...", "A B"),
    (".-  -...", "AB"),
    (".-\n-...", "A B"),
    (".- / / -...", "A B"),
    (" / .- / ", "A"),
    ("  .-  ", "A"),
    ("", ""),
    ("   ", ""),
    ("...-.-", "<SK>"),
    ("........", "<HH>"),
    ("...---...", "<SOS>"),
    ("--... ...-- / ...-.-", "73 <SK>"),
    ("..--- -....- ----- -..-. -----", "2-0/0"),
    ("..-..", "É"),
    (".-.-", "Ä"),
    // Pasted from the web: middle dots, bullets, minus signs, dashes and underscores.
    ("·−· ._. •–• ∙—∙", "RRRR"),
    ("··· ___ ··· / −·−", "SOS K"),
  ])
  func decodes(morse: String, expected: String) throws {
    #expect(try MorseDecoder.decode(morse) == expected)
  }

  @Test func decodesWhatTheEncoderWrites() throws {
    let text = "The quick brown fox, 1/2 @ 09:45? \"Yes\" (ok) = + ' - . <SK>"
    let encoded = try MorseMessage(text).encoded
    #expect(try MorseDecoder.decode(encoded) == text.uppercased())
  }

  @Test func unknownCodeIsReportedWithItsColumn() throws {
    let thrown = morseError { _ = try MorseDecoder.decode("... ....... ...") }
    #expect(thrown == .unknownCode(".......", line: 1, column: 5))
    let description = try #require(thrown).description
    #expect(description.contains("\".......\""))
    #expect(description.contains("line 1, column 5"))
  }

  @Test func codeWithAnotherCharacterIsReportedNamingIt() throws {
    let thrown = morseError { _ = try MorseDecoder.decode(".- .x-", line: 4) }
    #expect(thrown == .unknownCode(".x-", line: 4, column: 4))
    let description = try #require(thrown).description
    #expect(description.contains("'x' (U+0078)"))
    #expect(description.contains("line 4, column 4"))
  }

  @Test func linesAreCountedFromTheGivenLine() {
    let thrown = morseError { _ = try MorseDecoder.decode("...\n .......", line: 3) }
    #expect(thrown == .unknownCode(".......", line: 4, column: 2))
  }

  @Test func everyUnknownCodeIsShownAsTheReceiverShowsItAndReported() {
    var unknown: [MorseError] = []
    let text = MorseDecoder.decode("... ....... --- / ......", line: 2) { unknown.append($0) }
    #expect(text == "S[.......]O [......]")
    #expect(
      unknown == [
        .unknownCode(".......", line: 2, column: 5), .unknownCode("......", line: 2, column: 19),
      ])
  }

  @Test(arguments: [
    ".- / -... / -.-.", ".-   -...   -.-.", ".- -... -.-.", "   .- / -...", ".-.-.- / .--.-.",
  ])
  func aTextInPiecesDecodesAsTheWhole(morse: String) throws {
    let whole = try MorseDecoder.decode(morse)
    // Cut everywhere: inside codes, inside word gaps, at their edges.
    let characters = Array(morse)
    for first in 0...characters.count {
      for second in first...characters.count {
        var stream = MorseDecoder.Stream()
        var errors: [MorseError] = []
        let pieces = [characters[..<first], characters[first..<second], characters[second...]]
        let decoded =
          pieces.map { stream.decode(String($0)) { errors.append($0) } }.joined()
          + stream.finish { errors.append($0) }
        #expect(decoded == whole, "cut at \(first) and \(second)")
        #expect(errors.isEmpty)
      }
    }
  }

  @Test func anUnknownCodeCutBetweenPiecesIsOneCodeAtItsFirstColumn() {
    var stream = MorseDecoder.Stream(line: 7)
    var errors: [MorseError] = []
    let decoded =
      stream.decode("... ....") { errors.append($0) } + stream.decode("... ---") { errors.append($0) }
      + stream.finish { errors.append($0) }
    #expect(decoded == "S[.......]O")
    #expect(errors == [.unknownCode(".......", line: 7, column: 5)])
  }

  @Test func aLongCodeIsQuotedCutAndNotBlamedForTheCut() {
    let thrown = morseError { _ = try MorseDecoder.decode(String(repeating: ".", count: 41)) }
    let description = String(describing: thrown)
    #expect(description.contains("is not a Morse code"), "\(description)")
    #expect(!description.contains("U+2026"), "\(description)")
    // A "…" typed in a short code is still named.
    let typed = morseError { _ = try MorseDecoder.decode(".…") }
    #expect(String(describing: typed).contains("U+2026"))
  }
}

