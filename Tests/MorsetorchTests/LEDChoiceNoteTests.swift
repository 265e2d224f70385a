import LEDDriver
import MorseTestSupport
import Testing

@testable import MorsetorchTool

@Suite struct LEDChoiceNoteTests {
  @Test func severalTorchesAreNamedWithTheChoice() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("white:flash")
    try fixture.addLED("led:torch")
    try fixture.addLED("mmc0::")
    let note = try #require(
      LEDClassDirectory(path: fixture.ledsPath).chooseLED().note)
    #expect(note.contains("\"led:torch\""))
    #expect(note.contains("2 torch/flash LEDs"))
    #expect(note.contains("white:flash"))
    #expect(!note.contains("mmc0"))
    #expect(note.contains("morsetorch list"))
  }

  @Test func withoutTorchesAllLEDsAreCounted() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("mmc0::")
    try fixture.addLED("ACT")
    let note = try LEDClassDirectory(path: fixture.ledsPath).chooseLED().note
    #expect(note?.contains("2 LEDs") == true)
  }

  /// One torch among other LEDs: still a choice the user should hear of (issue 31).
  @Test func theOneTorchAmongOtherLEDsIsNamed() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("ACT")
    try fixture.addLED("white:flash")
    try fixture.addLED("mmc0::")
    let note = try #require(LEDClassDirectory(path: fixture.ledsPath).chooseLED().note)
    #expect(note.contains("\"white:flash\", the torch/flash LED among 3 LEDs"), "\(note)")
    #expect(note.contains("morsetorch list"))
  }

  @Test func theOnlyLEDNeedsNoNote() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("white:flash")
    #expect(try LEDClassDirectory(path: fixture.ledsPath).chooseLED().note == nil)
  }
}
