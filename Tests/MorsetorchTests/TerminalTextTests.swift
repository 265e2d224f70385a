import Testing

@testable import MorsetorchTool

@Suite struct TerminalTextTests {
  @Test func controlsAndInvisibleFormattingAreShownNotObeyed() {
    #expect(TerminalText.escaped("a\nb\tc\u{1B}[2J\u{07}") == "a\\nb\\tc\\u{1B}[2J\\u{7}")
    #expect(TerminalText.escaped("left\u{202E}right") == "left\\u{202E}right")
    #expect(TerminalText.escaped("white:flash ä €") == "white:flash ä €")
  }

  @Test func longTextIsCut() {
    let long = String(repeating: "E", count: 1000)
    #expect(TerminalText.escaped(long, limit: 10) == "EEEEEEEEEE…")
  }

  @Test(arguments: [
    (3.0, "3 s"), (65.0, "1 min 5 s"), (90_061.0, "1 d 1 h"), (-5.0, "0 s"), (.nan, "0 s"),
    (1e300, "11574074 d 1 h"),
  ])
  func elapsedTimes(seconds: Double, text: String) {
    #expect(TerminalText.elapsed(seconds: seconds) == text)
  }
}
