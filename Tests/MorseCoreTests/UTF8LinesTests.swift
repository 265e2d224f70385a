import MorseTestSupport
import Testing

@testable import MorseCore

@Suite struct UTF8LinesTests {
  @Test(arguments: ["", "SOS", "héllo wörld", "e\u{301}", "😀 €", "\u{10FFFF}", "\u{D7FF}\u{E000}"])
  func decodesValidText(text: String) throws {
    #expect(try UTF8Lines.decode(Array(text.utf8), line: 1) == text)
  }

  @Test func namesTheBadByteWithLineAndColumn() throws {
    let thrown = morseError { _ = try UTF8Lines.decode([0x41, 0xFF], line: 7) }
    #expect(thrown == .invalidUTF8(line: 7, column: 2, byte: 0xFF))
    let description = try #require(thrown).description
    #expect(description.contains("0xFF"))
    #expect(description.contains("line 7, column 2"))
  }

  @Test func columnCountsCharactersBeforeTheBadByte() {
    // "é" is two bytes, "e" + U+0301 is three bytes but one character.
    let bytes = Array("ée\u{301}".utf8) + [0x80]
    #expect(
      morseError { _ = try UTF8Lines.decode(bytes, line: 1) }
        == .invalidUTF8(
          line: 1, column: 3, byte: 0x80))
  }

  @Test func acceptsCollectionsWithoutContiguousStorage() throws {
    #expect(try UTF8Lines.decode(Array("hé".utf8).lazy.map { $0 }, line: 1) == "hé")
    let thrown = morseError { _ = try UTF8Lines.decode([0x41, 0xFF].lazy.map { $0 }, line: 2) }
    #expect(thrown == .invalidUTF8(line: 2, column: 2, byte: 0xFF))
  }

  @Test(
    arguments: [
      [0xC0, 0xAF],  // overlong "/"
      [0xC1, 0xBF],  // overlong
      [0xE0, 0x80, 0xAF],  // overlong "/"
      [0xF0, 0x80, 0x80, 0xAF],  // overlong "/"
      [0xED, 0xA0, 0x80],  // lone high surrogate U+D800
      [0xED, 0xBF, 0xBF],  // lone low surrogate U+DFFF
      [0xF4, 0x90, 0x80, 0x80],  // U+110000
      [0xF5, 0x80, 0x80, 0x80],  // beyond Unicode
      [0xFE], [0xFF],  // never in UTF-8
      [0x80],  // continuation without a lead
      [0xE2, 0x82],  // cut off "€"
      [0xE2, 0x82, 0x41],  // "€" interrupted by "A"
      [0xF0, 0x9F, 0x98],  // cut off "😀"
    ] as [[UInt8]])
  func refusesIllFormedSequences(bytes: [UInt8]) throws {
    let lead = try #require(bytes.first)
    #expect(
      morseError { _ = try UTF8Lines.decode([0x61] + bytes, line: 1) }
        == .invalidUTF8(
          line: 1, column: 2, byte: lead))
  }

  @Test func thePositionFinderAgreesWithTheValidatorWhateverTheFirstTwoBytes() {
    for first in UInt8.min...UInt8.max {
      for second in UInt8.min...UInt8.max {
        for bytes in [[first, second], [first, second, 0x80], [first, second, 0xBF, 0xBF]] {
          let isValid = String(validating: bytes, as: UTF8.self) != nil
          #expect((UTF8Lines.firstInvalidOffset(in: bytes) == nil) == isValid, "\(bytes)")
        }
      }
    }
  }
}

@Suite struct UTF8RepairTests {
  @Test func aByteOrderMarkIsDroppedOnlyAtTheStart() {
    #expect(Array(UTF8Lines.droppingByteOrderMark([0xEF, 0xBB, 0xBF, 0x41])) == [0x41])
    #expect(Array(UTF8Lines.droppingByteOrderMark([0x41, 0xEF, 0xBB, 0xBF])).count == 4)
  }

  @Test func repairingReplacesEachBadSequence() {
    #expect(UTF8Lines.repairing([0x61, 0xFF, 0x62]) == "a\u{FFFD}b")
    #expect(UTF8Lines.repairing([0xED, 0xA0, 0x80]).allSatisfy { $0 == "\u{FFFD}" })
  }
}
