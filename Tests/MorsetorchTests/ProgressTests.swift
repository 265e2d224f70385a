import Foundation
import Glibc
import MorseTestSupport
import Testing

// The progress line, --echo and --quiet of `send`, as a process: on a pseudo-terminal (where
// standard output and error are the same terminal), and into pipes.

private func fixture() throws -> TemporaryLEDDirectory {
  let fixture = try TemporaryLEDDirectory()
  try fixture.addLED(
    led, brightness: 0, trigger: "none [timer] heartbeat",
    attributes: ["delay_on": "100\n", "delay_off": "900\n"])
  return fixture
}

private func send(
  _ options: [String], environment: [String: String] = [:],
  launch: MorsetorchProcess.Launch = .underTerminal
) throws -> (MorsetorchProcess.Outcome, TemporaryLEDDirectory) {
  let fixture = try fixture()
  let outcome = try MorsetorchProcess.run(
    ["send", "--led", led] + options, ledsDirectory: fixture.ledsPath, environment: environment,
    launch: launch)
  return (outcome, fixture)
}

private let erase = "\r\u{1B}[K"

@Suite("progress, --echo and --quiet, as a process")
struct ProgressTests {
  @Test(.enabled(if: hasScript))
  func onATerminalTheProgressIsRedrawnInPlaceAndErasedAtTheEnd() throws {
    let (outcome, fixture) = try send(["--unit", "40", "EEE"])
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let screen = outcome.standardOutput
    #expect(screen.contains("\r"), "\(outcome)")
    #expect(screen.contains("3/3 characters"), "\(outcome)")
    #expect(screen.contains("\u{1B}[1;33m●"), "colour, since NO_COLOR is not set: \(outcome)")
    // Nothing left behind: the last thing written erases the line.
    #expect(screen.hasSuffix(erase), "\(screen.debugDescription)")
    try expectTimerRestored(fixture)
  }

  @Test(.enabled(if: hasScript), arguments: [["TERM": "dumb"], ["NO_COLOR": "1"]])
  func dumbTerminalsGetNoProgressAndNoColorGetsNoColour(environment: [String: String]) throws {
    let (outcome, _) = try send(["--unit", "20", "EE"], environment: environment)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(!outcome.standardOutput.contains("\u{1B}[1;33m"), "\(outcome)")
    if environment["TERM"] == "dumb" {
      #expect(outcome.standardOutput.isEmpty, "\(outcome)")
    } else {
      #expect(outcome.standardOutput.contains("2/2 characters"), "\(outcome)")
    }
  }

  @Test(.enabled(if: hasScript))
  func quietShowsNoProgressAndNoNotes() throws {
    let fixture = try TemporaryLEDDirectory()
    for name in ["a:torch", "b:torch"] { try fixture.addLED(name) }
    // Two torches: without --quiet, a note says which one was chosen.
    let noisy = try MorsetorchProcess.run(
      ["send", "--unit", "10", "E"], ledsDirectory: fixture.ledsPath, launch: .underTerminal)
    #expect(noisy.standardOutput.contains("a:torch"), "\(noisy)")
    let quiet = try MorsetorchProcess.run(
      ["send", "--quiet", "--unit", "10", "E"], ledsDirectory: fixture.ledsPath,
      launch: .underTerminal)
    #expect(quiet.exitStatus == 0, "\(quiet)")
    #expect(quiet.standardOutput.isEmpty, "\(quiet)")
  }

  @Test func withoutATerminalThereIsNoProgress() throws {
    let (outcome, _) = try send(["--unit", "10", "EE"], launch: .direct)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.isEmpty, "\(outcome)")
    #expect(outcome.standardOutput.isEmpty, "\(outcome)")
  }

  @Test(.enabled(if: hasScript))
  func aStopMidMessageLeavesNoProgressBehindItsMessage() throws {
    let fixture = try fixture()
    let sender = try MorsetorchProcess(
      ["send", "--led", led, "--unit", "200", "TTTTT"], ledsDirectory: fixture.ledsPath,
      launch: .underTerminal)
    sender.closeInput()
    let isOn = try eventually { try fixture.read("brightness", of: led) == "255\n" }
    try #require(isOn)
    usleep(300_000)
    _ = try MorsetorchProcess.run(["stop"], ledsDirectory: fixture.ledsPath)
    let outcome = try sender.wait()
    #expect(outcome.exitStatus == 143, "\(outcome)")
    let screen = outcome.standardOutput
    guard let lastErase = screen.range(of: erase, options: .backwards) else {
      Issue.record("the progress was never erased: \(screen.debugDescription)")
      return
    }
    // After the last erase: only the message, on a line of its own.
    let rest = String(screen[lastErase.upperBound...])
    #expect(rest.hasPrefix("morsetorch: stopped by pid "), "\(rest.debugDescription)")
    #expect(!rest.contains("characters"), "\(rest.debugDescription)")
    try expectTimerRestored(fixture)
  }

  @Test func echoPrintsEachCharacterAndALinePerRound() throws {
    let (once, _) = try send(["--echo", "--unit", "5", "SOS SOS"], launch: .direct)
    #expect(once.exitStatus == 0, "\(once)")
    #expect(once.standardOutput == "SOS SOS\n", "\(once)")
    let (twice, _) = try send(
      ["--echo", "--unit", "5", "--repeat", "2", "--pause", "35ms", "HI"], launch: .direct)
    #expect(twice.standardOutput == "HI\nHI\n", "\(twice)")
  }

  @Test func echoWithStandardOutputClosedStillSendsAndRestoresThenFails() throws {
    let (outcome, fixture) = try send(["--echo", "--unit", "5", "EE"], launch: .outputClosed)
    #expect(outcome.exitStatus == 74, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test(arguments: ["--dry-run", "--preview", "--detach"])
  func echoDoesNotGoWithWhatUsesStandardOutputOrLeavesIt(option: String) throws {
    let (outcome, fixture) = try send(["--echo", option, "E"], launch: .direct)
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(outcome.standardError.contains("--echo"), "\(outcome)")
    #expect(try fixture.read("trigger", of: led) == "none [timer] heartbeat\n")
  }
}
