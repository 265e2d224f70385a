import LEDDriver
import Testing

@testable import MorsetorchTool

@Suite struct LEDTableTests {
  @Test func ledTableIsAligned() {
    let lines = LEDTable.lines(for: [
      LEDInfo(
        name: "input0::capslock", maxBrightness: 1, activeTrigger: "kbd-capslock", brightness: 0,
        unwritable: []),
      LEDInfo(
        name: "ACT", maxBrightness: nil, activeTrigger: nil, brightness: nil,
        unwritable: ["brightness", "delay_on"]),
    ])
    #expect(
      lines == [
        "NAME              MAX  TRIGGER       BRIGHTNESS  WRITABLE",
        "input0::capslock  1    kbd-capslock  0           yes",
        "ACT               ?    ?             ?           no (brightness, delay_on)",
      ])
  }

  @Test func anLEDNameWithALineBreakKeepsTheTableToOneRowEach() {
    let lines = LEDTable.lines(for: [
      LEDInfo(
        name: "evil\nNAME  MAX", maxBrightness: 1, activeTrigger: "none", brightness: 0,
        unwritable: [])
    ])
    #expect(lines.count == 2)
    #expect(lines[1].hasPrefix("evil\\nNAME  MAX"))
  }
}
