import Testing

@testable import MorseCore

@Suite struct NationalAlphabetTests {
  @Test func theRussianAlphabetRoundTrips() throws {
    let text = "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
    let encoded = try MorseMessage(text).encoded
    #expect(try MorseDecoder.decode(encoded, alphabet: .cyrillic).replacingSpaces == text)
    #expect(try MorseMessage("съешь же ещё этих мягких французских булок").skippedCount == 0)
  }

  @Test func theGreekAlphabetRoundTrips() throws {
    let text = "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ"
    let encoded = try MorseMessage(text).encoded
    #expect(try MorseDecoder.decode(encoded, alphabet: .greek).replacingSpaces == text)
    // Lowercase, final sigma and tonos are sent as their capitals.
    #expect(
      try MorseMessage("καλημέρα κόσμε").encoded == MorseMessage("ΚΑΛΗΜΕΡΑ ΚΟΣΜΕ").encoded)
  }

  @Test func theSameCodesReadAsLatinByDefault() throws {
    let encoded = try MorseMessage("СОС").encoded
    #expect(try MorseDecoder.decode(encoded) == "SOS")
    #expect(try MorseDecoder.decode(encoded, alphabet: .cyrillic) == "СОС")
    #expect(try MorseDecoder.decode(encoded, alphabet: .greek) == "ΣΟΣ")
  }

  @Test func figuresAndProsignsReadAsUsualInAnyScript() throws {
    #expect(try MorseDecoder.decode(".---- ..--- / ...-.-", alphabet: .cyrillic) == "12 <SK>")
  }

  @Test(arguments: ["latin", "Cyrillic", "russian", "GREEK", "itu"])
  func namesAreAccepted(name: String) {
    #expect(NationalAlphabet(name: name) != nil)
  }

  @Test func anUnknownNameIsNone() {
    #expect(NationalAlphabet(name: "klingon") == nil)
  }
}

extension String {
  /// Without the spaces the decoder puts between letters of separate words.
  fileprivate var replacingSpaces: String { filter { $0 != " " } }
}
