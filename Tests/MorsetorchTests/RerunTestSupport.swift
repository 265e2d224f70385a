import Foundation
import MorseTestSupport
import Testing

// What the tests of one transmitter per LED, across processes (issue 3), share (RerunTests,
// SeveralLEDsTests, DetachTests, ProgressTests): the built executable run as child processes
// sharing one temporary LED class directory and one runtime directory.

/// The LED the tests of one transmitter per LED send on.
let led = "white:flash"

/// A fixture with `names` LEDs on the timer trigger (delays 100/900), and its runtime directory.
func fixture(_ names: [String] = [led]) throws -> TemporaryLEDDirectory {
  let fixture = try TemporaryLEDDirectory()
  for name in names {
    try fixture.addLED(
      name, maxBrightness: 255, brightness: 0, trigger: "none [timer] heartbeat",
      attributes: ["delay_on": "100\n", "delay_off": "900\n"])
  }
  return fixture
}

/// The runtime directory the process helper gives the children of `fixture`.
func runtimeDirectory(of fixture: TemporaryLEDDirectory) -> String {
  fixture.root + "/run"
}

func start(_ arguments: [String], in fixture: TemporaryLEDDirectory) throws
  -> MorsetorchProcess
{
  let child = try MorsetorchProcess(arguments, ledsDirectory: fixture.ledsPath)
  child.closeInput()
  return child
}

func run(_ arguments: [String], in fixture: TemporaryLEDDirectory, input: String = "")
  throws -> MorsetorchProcess.Outcome
{
  try MorsetorchProcess.run(arguments, ledsDirectory: fixture.ledsPath, input: input)
}

/// Starts a long transmission on `name` and waits until its LED is on.
func startLongSend(
  on name: String = led, in fixture: TemporaryLEDDirectory, unit: String = "300",
  extra: [String] = []
) throws -> MorsetorchProcess {
  let child = try start(["send", "--led", name, "--unit", unit] + extra + ["TTTTT"], in: fixture)
  let isOn = try eventually { try fixture.read("brightness", of: name) != "0\n" }
  try #require(isOn, "the first transmission never switched the LED on")
  return child
}

/// The files morsetorch left in the runtime directory, other than lock files and sockets.
func leftovers(_ fixture: TemporaryLEDDirectory) -> [String] {
  let names =
    (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory(of: fixture)))
    ?? []
  // The sockets that take stop requests live as long as their owners, like the locks.
  return names.filter {
    !$0.hasSuffix(".lock") && !$0.hasSuffix(".tickets") && !$0.hasSuffix(".stop")
  }.sorted()
}
