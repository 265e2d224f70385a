import MorseTestSupport
import Testing

/// Checks the LED is back on its timer trigger with its delays, and off.
func expectTimerRestored(
  _ fixture: TemporaryLEDDirectory, _ name: String = "white:flash",
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  #expect(try fixture.read("trigger", of: name) == "timer\n", sourceLocation: sourceLocation)
  #expect(try fixture.read("delay_on", of: name) == "100\n", sourceLocation: sourceLocation)
  #expect(try fixture.read("delay_off", of: name) == "900\n", sourceLocation: sourceLocation)
  #expect(try fixture.read("brightness", of: name) == "0\n", sourceLocation: sourceLocation)
}
