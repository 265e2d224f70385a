import Testing

@testable import MorseCore

@Suite struct ControlSequencesTests {
  @Test(arguments: [
    // systemd's colours, as journalctl prints them.
    ("\u{1B}[0;1;39mStarted\u{1B}[0m Journal", "Started Journal"),
    ("\u{1B}[0;1;31mFAILED\u{1B}[0m", "FAILED"),
    // A window title (OSC) ended by BEL, and by ST.
    ("\u{1B}]0;title\u{07}text", "text"),
    ("\u{1B}]8;;http://x\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
    // A character set (ESC ( B), a keypad mode (ESC =), the C1 CSI.
    ("\u{1B}(Ba\u{1B}=b\u{9B}1mc", "abc"),
    // Other controls go; tab and line breaks stay.
    ("a\u{07}b\u{08}c\td\r\n", "abc\td\r\n"),
    ("plain text → as it is", "plain text → as it is"),
    // A sequence cut at the end of the text.
    ("end\u{1B}[0;1", "end"),
  ])
  func areRemovedAndTheTextStays(text: String, expected: String) {
    #expect(ControlSequences.removing(from: text) == expected)
  }
}

@Suite struct ControlSequenceFilterTests {
  /// Log-like text with every kind of sequence, each form of ending, and C1 forms.
  static let sample =
    "E\u{1B}[0;1;39mT\u{1B}]0;title\u{07}E\u{1B}]8;;http://x\u{1B}\\T\u{1B}(BE\u{9B}1mT"
    + "\u{9D}2;name\u{9C}E\u{90}q#0;2\u{1B}\\T\u{1B}X s \u{1B}\\E\u{1B}^pm\u{9C}T\u{9F}apc\u{9C}E"

  @Test(arguments: [
    // The C1 forms: OSC ended by C1 ST, DCS by ESC \, SOS, PM and APC; a lone ST goes too.
    ("\u{9D}0;title\u{9C}a\u{90}1$r\u{1B}\\b\u{98}x\u{9C}c\u{9E}y\u{9C}d\u{9F}z\u{9C}e\u{9C}", "abcde"),
    // SOS, PM and APC in their 7-bit forms; BEL ends an OSC only.
    ("\u{1B}Xs\u{1B}\\a\u{1B}^p\u{07}q\u{1B}\\b\u{1B}_a\u{1B}\\c", "abc"),
    // CAN and SUB cancel a sequence; what follows is text.
    ("\u{1B}[1\u{18}2m\u{1B}]x\u{1A}y", "2my"),
    // A line feed ends a string its line did not end.
    ("a\u{1B}]0;broken\nb", "a\nb"),
  ])
  func areRemovedWhole(text: String, expected: String) {
    #expect(ControlSequences.removing(from: text) == expected)
  }

  @Test func bytesOfUTF8TextInTheC1RangeAreNoControls() {
    // Ü, ě, Ý, Ð, Ø, Þ, ß and € are encoded with bytes 0x90-0x9F (DCS, CSI, OSC, ST… alone).
    let text = "Über ěÝ ÐØÞß €"
    #expect(text.utf8.contains(where: { (0x90...0x9F).contains($0) }))
    #expect(ControlSequences.removing(from: text) == text)
    #expect(ControlSequences.removing(from: "\u{1B}]0;Über\u{07}ěÝ") == "ěÝ")
  }

  @Test func aSequenceCutAtAnyCharacterBetweenTwoPiecesIsRemovedWhole() {
    let scalars = Array(Self.sample.unicodeScalars)
    for cut in 0...scalars.count {
      var filter = ControlSequenceFilter()
      let first = filter.filter(String(String.UnicodeScalarView(scalars[..<cut])))
      let second = filter.filter(String(String.UnicodeScalarView(scalars[cut...])))
      #expect(first.text + second.text == "ETETETETETE", "cut at \(cut)")
      #expect(first.overruns.isEmpty && second.overruns.isEmpty)
    }
  }

  @Test func anUnterminatedStringOverItsLimitIsReportedOnceAndDroppedToTheEndOfItsLine() {
    let limit = ControlSequenceFilter.stringLimit
    // ESC ] and the string: twice its limit, in pieces of 4096, then the next line.
    let text = "\u{1B}]" + String(repeating: "x", count: 2 * limit) + "SOS\nE"
    #expect(ControlSequences.removing(from: text) == "\nE")
    let (sent, overruns) = Self.filtered(text, inPiecesOf: 4096)
    #expect(sent == "\nE")
    #expect(overruns == [.operatingSystemCommand])
  }

  @Test func aControlSequenceOfAMegabyteIsDroppedToItsEndWithOneReport() {
    let text = "A\u{1B}[" + String(repeating: "1;", count: 500_000) + "mE"
    let (sent, overruns) = Self.filtered(text, inPiecesOf: 4096)
    #expect(sent == "AE")
    #expect(overruns == [.controlSequence])
  }

  @Test func aStringEndedByBELOrSTInALaterPieceEndsThere() {
    for ending in ["\u{07}", "\u{1B}\\", "\u{9C}"] {
      var filter = ControlSequenceFilter()
      let first = filter.filter("A\u{1B}]0;" + String(repeating: "title ", count: 1000))
      let second = filter.filter("more title" + ending + "E")
      #expect(first.text + second.text == "AE")
    }
  }

  @Test func aLineEndEndsTheSequenceInProgress() {
    var filter = ControlSequenceFilter()
    #expect(filter.filter("A\u{1B}]0;never ended").text == "A")
    filter.endLine()
    #expect(filter.filter("next line").text == "next line")
  }

  /// `text` in pieces of `length` characters.
  /// `text` through one filter in pieces of `length` characters: what is left, and the
  /// overruns reported.
  private static func filtered(_ text: String, inPiecesOf length: Int)
    -> (text: String, overruns: [ControlSequenceKind])
  {
    var filter = ControlSequenceFilter()
    var sent = ""
    var overruns: [ControlSequenceKind] = []
    for piece in pieces(of: text, length: length) {
      let filtered = filter.filter(piece)
      sent += filtered.text
      overruns += filtered.overruns
    }
    return (sent, overruns)
  }

  static func pieces(of text: String, length: Int) -> [String] {
    let scalars = Array(text.unicodeScalars)
    return stride(from: 0, to: scalars.count, by: length).map { start in
      String(String.UnicodeScalarView(scalars[start..<min(start + length, scalars.count)]))
    }
  }
}
