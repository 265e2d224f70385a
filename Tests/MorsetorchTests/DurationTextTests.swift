import Testing

@testable import MorsetorchTool

@Suite struct DurationTextTests {
  @Test(arguments: [
    ("500ms", Duration.milliseconds(500)), ("2s", .seconds(2)), ("1.5s", .milliseconds(1500)),
    ("1m", .seconds(60)), ("2min", .seconds(120)), ("1h", .seconds(3600)), ("0s", .zero),
    ("24h", .seconds(86_400)),
  ])
  func durationsAsPeopleWriteThem(text: String, duration: Duration) {
    #expect(DurationText.parse(text) == duration)
  }

  @Test(arguments: [
    "2", "s", "1.2.3s", ".s", "-1s", "25h", "2 s", "1d", "", "+1s", "+250ms", " 1s", ".5s",
    "1.s", "1e3ms", "0x10s", "١s",
  ])
  func anythingElseIsNone(text: String) {
    #expect(DurationText.parse(text) == nil)
  }
}
