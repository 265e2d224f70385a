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
