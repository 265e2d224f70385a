import Foundation
import Glibc
import LEDDriver
import LinuxSystem
import MorseCore
import MorsePlayer
import MorseTestSupport
import Testing
import TransmitterControl

@testable import MorsetorchTool

// End-to-end tests: the built executable, run as a child process on a temporary LED class
// directory (never /sys). Each test has a directory of its own, so they run in parallel.

private let flash = "white:flash"

/// Runs `morsetorch ARGUMENTS…` on `fixture`'s LED class directory.
private func runMorsetorch(
  _ arguments: String..., in fixture: TemporaryLEDDirectory, input: String = "",
  environment: [String: String] = [:]
) throws -> MorsetorchProcess.Outcome {
  try MorsetorchProcess.run(
    arguments, ledsDirectory: fixture.ledsPath, input: input, environment: environment)
}

/// Starts `morsetorch ARGUMENTS…` on `fixture`'s LED class directory, standard input open.
private func start(
  _ arguments: String..., in fixture: TemporaryLEDDirectory
) throws -> MorsetorchProcess {
  try MorsetorchProcess(arguments, ledsDirectory: fixture.ledsPath)
}

/// A fixture with one LED, `white:flash`, running the timer trigger with tuned delays.
private func timerFixture(trigger: String = "none [timer] heartbeat") throws
  -> TemporaryLEDDirectory
{
  let fixture = try TemporaryLEDDirectory()
  try fixture.addLED(
    flash, maxBrightness: 255, brightness: 7, trigger: trigger,
    attributes: ["delay_on": "100\n", "delay_off": "900\n"])
  return fixture
}

@Suite("send, as a process")
struct SendProcessTests {
  @Test func sendRestoresTheBrightnessWhenNoTriggerWasActive() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(flash, brightness: 7, trigger: "[none] timer heartbeat")
    let outcome = try runMorsetorch("send", "--led", flash, "--unit", "1", "SOS", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput.isEmpty)
    #expect(try fixture.read("brightness", of: flash) == "7\n")
    #expect(try fixture.read("trigger", of: flash) == "[none] timer heartbeat\n")
  }

  @Test(arguments: ["none [timer] heartbeat", "[timer]"])
  func sendPutsTheTimerTriggerAndItsDelaysBack(_ trigger: String) throws {
    let fixture = try timerFixture(trigger: trigger)
    let outcome = try runMorsetorch("send", "--led", flash, "--unit", "1", "SOS", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    // The trigger owns brightness again: the LED is left off for it, not at the old 7.
    try expectTimerRestored(fixture)
  }

  @Test func delaysResetWhileSendingAreWrittenBack() throws {
    // The kernel resets delay_on/delay_off when the timer trigger goes and comes back; the
    // values tuned before must be the ones left afterwards.
    let fixture = try timerFixture()
    let child = try start("send", "--led", flash, "--unit", "200", "T", in: fixture)
    child.closeInput()
    #expect(try eventually { try fixture.read("trigger", of: flash) == "none\n" })
    try fixture.write("500\n", to: "delay_on", of: flash)
    try fixture.write("500\n", to: "delay_off", of: flash)
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test(arguments: [(nil as String?, "255\n"), ("50%", "128\n"), ("3", "3\n"), ("1000", "255\n")])
  func whileSendingTheLEDIsOnAtTheChosenBrightnessWithNoTrigger(
    _ brightness: String?, _ expected: String
  ) throws {
    let fixture = try timerFixture()
    var arguments = ["send", "--led", flash, "--unit", "400"]
    if let brightness { arguments += ["--brightness", brightness] }
    let child = try MorsetorchProcess(arguments + ["T"], ledsDirectory: fixture.ledsPath)
    child.closeInput()
    let isOn = try eventually { try fixture.read("brightness", of: flash) == expected }
    #expect(isOn, "brightness never read \(expected.debugDescription)")
    if isOn {
      #expect(try fixture.read("trigger", of: flash) == "none\n")
    }
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test func standardInputIsSentAsEachLineArrives() throws {
    let fixture = try timerFixture()
    let child = try start("send", "--led", flash, "--unit", "300", in: fixture)
    try child.write("E\n")
    // Standard input is still open: the line must be on its way before the end of input.
    let isOn = try eventually { try fixture.read("brightness", of: flash) == "255\n" }
    #expect(isOn, "the first line was not sent before standard input was closed")
    #expect(child.isRunning)
    child.closeInput()
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test(arguments: [[], ["-"]])
  func everyLineOfStandardInputIsSent(_ operands: [String]) throws {
    let fixture = try timerFixture()
    let recorder = AttributeRecorder("brightness", of: flash, in: fixture)
    let outcome = try MorsetorchProcess.run(
      ["send", "--led", flash, "--unit", "50"] + operands, ledsDirectory: fixture.ledsPath,
      input: "E\nT\n")
    let values = recorder.stop()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    // E, a word gap, T: 1 + 7 + 3 units.
    #expect(outcome.elapsed >= .milliseconds(550))
    #expect(values.filter { $0 == "255\n" }.count == 2, "brightness went \(values)")
    try expectTimerRestored(fixture)
  }

  @Test func lastLineWithoutNewlineIsSent() throws {
    let fixture = try timerFixture()
    let recorder = AttributeRecorder("brightness", of: flash, in: fixture)
    let outcome = try runMorsetorch("send", "--led", flash, "--unit", "50", in: fixture, input: "T")
    let values = recorder.stop()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(values.contains("255\n"), "brightness went \(values)")
    try expectTimerRestored(fixture)
  }

  @Test func windowsLineEndingsAreNotCharacters() throws {
    let fixture = try timerFixture()
    let outcome = try runMorsetorch(
      "send", "--led", flash, "--unit", "1", in: fixture, input: "E\r\nT\r\n")
    #expect(outcome.exitStatus == 0, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test func ledWithoutTriggerSupportGetsItsBrightnessBack() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(flash, brightness: 3, trigger: nil)
    let outcome = try runMorsetorch("send", "--led", flash, "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(try fixture.read("brightness", of: flash) == "3\n")
    #expect(!FileManager.default.fileExists(atPath: fixture.devicePath(of: flash) + "/trigger"))
  }

  @Test(arguments: [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGHUP, "SIGHUP")])
  func signalStopsTheMessageAndRestoresTheLED(_ signal: Int32, _ name: String) throws {
    let fixture = try timerFixture()
    let child = try start("send", "--led", flash, "--unit", "500", "TTTT", in: fixture)
    let isOn = try eventually { try fixture.read("brightness", of: flash) == "255\n" }
    try #require(isOn, "the LED never went on")
    let signalled = ContinuousClock.now
    child.send(signal: signal)
    let outcome = try child.wait(timeout: .seconds(5))
    #expect(ContinuousClock.now - signalled < .seconds(2), "took long to stop")
    #expect(outcome.reason == .exit, "\(outcome)")
    #expect(outcome.status == 128 + signal, "\(outcome)")
    #expect(outcome.standardError.contains(name), "\(outcome)")
    try expectTimerRestored(fixture)
  }

  /// Signals whose default action ends the process, beyond the three of a terminal, with
  /// their names: Ctrl-\, `kill -USR1`, `kill -ALRM`, a real-time signal.
  static let otherStoppingSignals: [(Int32, String)] = [
    (SIGQUIT, "SIGQUIT"), (SIGUSR1, "SIGUSR1"), (SIGALRM, "SIGALRM"),
    (__libc_current_sigrtmin() + 3, "SIGRTMIN+3"),
  ]

  @Test(arguments: otherStoppingSignals)
  func everySignalThatWouldEndTheProcessRestoresTheLEDFirst(_ signal: Int32, _ name: String)
    throws
  {
    let fixture = try timerFixture()
    // With the runtime's backtracer on, SIGQUIT must still be ours, not a crash report.
    let child = try MorsetorchProcess(
      ["send", "--led", flash, "--unit", "500", "TTTT"], ledsDirectory: fixture.ledsPath,
      environment: ["SWIFT_BACKTRACE": "enable=yes"])
    child.closeInput()
    // In the middle of the first dash.
    let isOn = try eventually { try fixture.read("brightness", of: flash) == "255\n" }
    try #require(isOn, "the LED never went on")
    child.send(signal: signal)
    let outcome = try child.wait(timeout: .seconds(5))
    #expect(outcome.exitStatus == 128 + signal, "\(outcome)")
    #expect(outcome.standardError.contains("stopped by \(name); LED restored"), "\(outcome)")
    #expect(!outcome.standardError.contains("crashed"), "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test func signalBlockedByTheParentIsStillHandled() throws {
    // A program that starts morsetorch from a thread with signals blocked (Swift concurrency,
    // Dispatch) passes that mask on; `kill` must still stop the transmission.
    let fixture = try timerFixture()
    let child = try MorsetorchProcess(
      ["send", "--led", flash, "--unit", "500", "TTTT"], ledsDirectory: fixture.ledsPath,
      blockedSignals: [SIGTERM, SIGINT, SIGHUP])
    child.closeInput()
    let isOn = try eventually { try fixture.read("brightness", of: flash) == "255\n" }
    try #require(isOn, "the LED never went on")
    child.send(signal: SIGTERM)
    let outcome = try child.wait(timeout: .seconds(5))
    #expect(outcome.exitStatus == 143, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test(.enabled(if: MorsetorchProcess.canSetSignalDispositions, "needs env --ignore-signal"))
  func hangupIgnoredByTheParentStaysIgnored() throws {
    // `nohup morsetorch send …` must survive the hangup.
    let fixture = try timerFixture()
    let child = try MorsetorchProcess(
      ["send", "--led", flash, "--unit", "200", "TTTT"], ledsDirectory: fixture.ledsPath,
      ignoredSignals: [SIGHUP])
    child.closeInput()
    let isOn = try eventually { try fixture.read("brightness", of: flash) == "255\n" }
    try #require(isOn, "the LED never went on")
    child.send(signal: SIGHUP)
    usleep(300_000)
    #expect(child.isRunning, "SIGHUP stopped a transmission that ignores it")
    child.send(signal: SIGTERM)
    let outcome = try child.wait(timeout: .seconds(5))
    #expect(outcome.exitStatus == 143, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test func signalWhileWaitingForInputRestoresTheLED() throws {
    let fixture = try timerFixture()
    let child = try start("send", "--led", flash, "--unit", "50", in: fixture)
    // Claimed (trigger taken away) and waiting for the first line.
    let isClaimed = try eventually { try fixture.read("trigger", of: flash) == "none\n" }
    try #require(isClaimed, "the LED was never claimed")
    usleep(50_000)
    child.send(signal: SIGTERM)
    let outcome = try child.wait(timeout: .seconds(5))
    #expect(outcome.exitStatus == 143, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test func unknownCharacterIsRejectedBeforeTheLEDIsTouched() throws {
    let fixture = try timerFixture()
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch("send", "--led", flash, "--unit", "1", "a€", in: fixture)
    #expect(outcome.exitStatus == 65, "\(outcome)")
    for part in ["'€'", "U+20AC", "line 1, column 2"] {
      #expect(outcome.standardError.contains(part), "\(outcome)")
    }
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func anUnknownCharacterInAStreamIsSkippedWithAWarningAndTheStreamGoesOn() throws {
    let fixture = try timerFixture()
    let recorder = AttributeRecorder("brightness", of: flash, in: fixture)
    let outcome = try runMorsetorch(
      "send", "--led", flash, "--unit", "50", in: fixture, input: "E\nE€\nE\n")
    let values = recorder.stop()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.contains("line 2, column 2"), "\(outcome)")
    #expect(outcome.standardError.contains("U+20AC"), "\(outcome)")
    #expect(values.filter { $0 == "255\n" }.count == 3, "brightness went \(values)")
    try expectTimerRestored(fixture)
  }

  @Test func bytesThatAreNotUTF8InAStreamAreSkippedWithAWarning() throws {
    let fixture = try timerFixture()
    let child = try start("send", "--led", flash, "--unit", "5", in: fixture)
    try child.write(bytes: Array("E\n".utf8) + [0x41, 0xFF, 0x0A])
    child.closeInput()
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(
      outcome.standardError.contains("bytes that are not UTF-8 (U+FFFD) at line 2, column 2"),
      "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test func invalidUTF8ArgumentIsRejectedBeforeTheLEDIsTouched() throws {
    let fixture = try timerFixture()
    let before = try LEDSnapshot(of: flash, in: fixture)
    let child = try MorsetorchProcess(
      ["send", "--led", flash, "--unit", "1"], ledsDirectory: fixture.ledsPath,
      launch: .rawLastArgument([0x41, 0xFF]))
    child.closeInput()
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 65, "\(outcome)")
    #expect(outcome.standardError.contains("0xFF"), "\(outcome)")
    #expect(outcome.standardError.contains("not valid UTF-8"), "\(outcome)")
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func aByteOrderMarkAtTheStartOfAnArgumentIsIgnored() throws {
    let fixture = try timerFixture()
    let child = try MorsetorchProcess(
      ["encode"], ledsDirectory: fixture.ledsPath,
      launch: .rawLastArgument([0xEF, 0xBB, 0xBF] + Array("SOS".utf8)))
    child.closeInput()
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == "... --- ...\n", "\(outcome)")
    // After a mark, a bad byte's column counts from the first character after it.
    let bad = try MorsetorchProcess(
      ["encode"], ledsDirectory: fixture.ledsPath,
      launch: .rawLastArgument([0xEF, 0xBB, 0xBF, 0x41, 0xFF]))
    bad.closeInput()
    let refused = try bad.wait()
    #expect(refused.exitStatus == 65, "\(refused)")
    #expect(refused.standardError.contains("byte 0xFF at column 2"), "\(refused)")
  }

  @Test func unknownLEDListsTheLEDsThatExist() throws {
    let fixture = try timerFixture()
    try fixture.addLED("a:red:status")
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch("send", "--led", "blue:torch", "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    for part in ["blue:torch", "a:red:status", flash] {
      #expect(outcome.standardError.contains(part), "\(outcome)")
    }
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  // No interpolation in the arguments: Swift 6.0.3 (the arm64 build's) crashes on it.
  @Test(arguments: ["../x", "a/b", "..", ".", "", "../leds/" + flash])
  func ledNameThatIsAPathIsAUsageErrorAndNothingIsJoined(_ name: String) throws {
    let fixture = try timerFixture()
    // Decoys where a joined path would lead: root/x (for ../x) and leds/a/b (for a/b).
    let outside = fixture.root + "/x"
    let nested = fixture.ledsPath + "/a/b"
    for directory in [outside, nested] {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      for (attribute, content) in [
        ("max_brightness", "255\n"), ("brightness", "0\n"), ("trigger", "none [timer]\n"),
      ] {
        try Data(content.utf8).write(to: URL(fileURLWithPath: directory + "/" + attribute))
      }
    }
    let decoys = try [outside, nested].map(LEDSnapshot.init(directory:))
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch("send", "--led", name, "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(outcome.standardError.contains("is not an LED name"), "\(outcome)")
    #expect(try [outside, nested].map(LEDSnapshot.init(directory:)) == decoys)
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func invalidLEDNameFromTheEnvironmentIsAUsageError() throws {
    let fixture = try timerFixture()
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch(
      "send", "--unit", "1", "E", in: fixture, environment: ["MORSETORCH_LED": "../x"])
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func anLEDTheEnvironmentNamesThatDoesNotExistIsNamedAsTheVariable() throws {
    let fixture = try timerFixture()
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch(
      "send", "--unit", "1", "E", in: fixture, environment: ["MORSETORCH_LED": "blue:torch"])
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(
      outcome.standardError.hasPrefix("morsetorch: MORSETORCH_LED names no LED: "), "\(outcome)")
    #expect(outcome.standardError.contains("blue:torch"), "\(outcome)")
    #expect(outcome.standardError.contains(flash), "it lists the LEDs that exist: \(outcome)")
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func missingClassDirectory() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      ["send", "--unit", "1", "E"], ledsDirectory: fixture.root + "/no-such-dir")
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains(fixture.root + "/no-such-dir"), "\(outcome)")
  }

  @Test func emptyClassDirectory() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("send", "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains("no LEDs"), "\(outcome)")
  }

  @Test(.enabled(if: MorsetorchProcess.canRunUnprivileged, "needs setpriv(1) when run as root"))
  func permissionDeniedExplainsWhatToDo() throws {
    let fixture = try timerFixture()
    if getuid() != 0 {
      try fixture.setPermissions(0o444, of: "trigger", of: flash)
      try fixture.setPermissions(0o444, of: "brightness", of: flash)
    }
    let before = try LEDSnapshot(of: flash, in: fixture)
    let child = try MorsetorchProcess(
      ["send", "--led", flash, "--unit", "1", "E"], ledsDirectory: fixture.ledsPath,
      launch: .unprivileged)
    child.closeInput()
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 77, "\(outcome)")
    #expect(outcome.standardError.contains("EACCES"), "\(outcome)")
    #expect(outcome.standardError.contains("udev"), "\(outcome)")
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func unreadableBrightnessIsAnIOErrorAndTheTriggerStays() throws {
    let fixture = try timerFixture()
    try fixture.removeAttribute("brightness", of: flash)
    try FileManager.default.createDirectory(
      atPath: fixture.devicePath(of: flash) + "/brightness", withIntermediateDirectories: false)
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch("send", "--led", flash, "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 74, "\(outcome)")
    #expect(outcome.standardError.contains("EISDIR"), "\(outcome)")
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func malformedMaxBrightnessMeansTheLEDIsUnavailable() throws {
    let fixture = try timerFixture()
    try fixture.write("lots\n", to: "max_brightness", of: flash)
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch("send", "--led", flash, "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains("max_brightness"), "\(outcome)")
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func ledVanishingDuringALongGapIsNoticedBeforeTheNextWrite() throws {
    let fixture = try timerFixture()
    // E, then a word gap of 3.5 s before the next E: no write would notice the LED is gone.
    let child = try start("send", "--led", flash, "--unit", "500", "E E", in: fixture)
    child.closeInput()
    let wentOn = try eventually { try fixture.read("brightness", of: flash) == "255\n" }
    try #require(wentOn, "the LED never went on")
    let wentOff = try eventually { try fixture.read("brightness", of: flash) == "0\n" }
    try #require(wentOff, "the LED never went off")
    try fixture.removeLED(flash)
    let removed = ContinuousClock.now
    let outcome = try child.wait(timeout: .seconds(10))
    #expect(ContinuousClock.now - removed < .seconds(2), "\(outcome)")
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains("disappeared"), "\(outcome)")
  }

  @Test func ledVanishingMidMessageEndsPromptly() throws {
    let fixture = try timerFixture()
    let child = try start("send", "--led", flash, "--unit", "300", "TTTTT", in: fixture)
    child.closeInput()
    let isOn = try eventually { try fixture.read("brightness", of: flash) == "255\n" }
    try #require(isOn, "the LED never went on")
    try fixture.removeLED(flash)
    let outcome = try child.wait(timeout: .seconds(3))
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains("disappeared"), "\(outcome)")
    #expect(!FileManager.default.fileExists(atPath: fixture.devicePath(of: flash)))
  }

  @Test(arguments: [
    ["--wpm", "0"], ["--wpm", "20", "--unit", "5"], ["--unit", "0"], ["--wpm", "fast"],
    ["--unit", "5", "--farnsworth", "3"], ["--brightness", "0"], ["--dry-run", "--preview"],
    ["--frobnicate"], ["--led"],
  ])
  func usageErrorsLeaveTheLEDAlone(_ options: [String]) throws {
    let fixture = try timerFixture()
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try MorsetorchProcess.run(
      ["send", "E"] + options, ledsDirectory: fixture.ledsPath,
      environment: ["MORSETORCH_LED": flash])
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(outcome.standardError.hasPrefix("morsetorch: "), "\(outcome)")
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func emptyTextIsAUsageError() throws {
    let fixture = try timerFixture()
    let outcome = try runMorsetorch("send", "--led", flash, " ", in: fixture)
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(outcome.standardError.contains("empty"), "\(outcome)")
  }

  @Test func skipUnknownSendsTheRestWithAWarning() throws {
    let fixture = try timerFixture()
    let outcome = try runMorsetorch(
      "send", "--led", flash, "--unit", "1", "--skip-unknown", "a€b", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.contains("warning"), "\(outcome)")
    #expect(outcome.standardError.contains("U+20AC"), "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test func automaticChoicePrefersTheFlashLED() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("input3::capslock", maxBrightness: 1, trigger: "[kbd-capslock] none")
    try fixture.addLED(
      flash, trigger: "[timer]", attributes: ["delay_on": "100\n", "delay_off": "900\n"])
    let capslock = try LEDSnapshot(of: "input3::capslock", in: fixture)
    let outcome = try runMorsetorch("send", "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    // The plain trigger file was rewritten with the name alone: the flash LED was claimed.
    try expectTimerRestored(fixture)
    #expect(try LEDSnapshot(of: "input3::capslock", in: fixture) == capslock)
    // The one torch among other LEDs is said, as the README promises (issue 31).
    #expect(
      outcome.standardError.contains("\"white:flash\", the torch/flash LED among 2 LEDs"),
      "\(outcome)")
  }

  @Test func automaticChoiceAmongSeveralTorchesIsReported() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("white:torch", trigger: "[none] timer")
    try fixture.addLED(
      flash, trigger: "[timer]", attributes: ["delay_on": "100\n", "delay_off": "900\n"])
    let torch = try LEDSnapshot(of: "white:torch", in: fixture)
    let outcome = try runMorsetorch("send", "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.contains("using LED \"\(flash)\""), "\(outcome)")
    try expectTimerRestored(fixture)
    #expect(try LEDSnapshot(of: "white:torch", in: fixture) == torch)
  }

  @Test func environmentNamesTheLEDAndTheOptionOverridesIt() throws {
    let fixture = try TemporaryLEDDirectory()
    for name in ["a:green:status", "b:red:status"] {
      try fixture.addLED(
        name, trigger: "[timer]", attributes: ["delay_on": "100\n", "delay_off": "900\n"])
    }
    let green = try LEDSnapshot(of: "a:green:status", in: fixture)
    let chosen = try runMorsetorch(
      "send", "--unit", "1", "E", in: fixture, environment: ["MORSETORCH_LED": "b:red:status"])
    #expect(chosen.exitStatus == 0, "\(chosen)")
    try expectTimerRestored(fixture, "b:red:status")
    #expect(try LEDSnapshot(of: "a:green:status", in: fixture) == green)

    let red = try LEDSnapshot(of: "b:red:status", in: fixture)
    let overridden = try runMorsetorch(
      "send", "--led", "a:green:status", "--unit", "1", "E", in: fixture,
      environment: ["MORSETORCH_LED": "b:red:status"])
    #expect(overridden.exitStatus == 0, "\(overridden)")
    try expectTimerRestored(fixture, "a:green:status")
    #expect(try LEDSnapshot(of: "b:red:status", in: fixture) == red)
  }
}

@Suite("send on LEDs chosen by a pattern, as a process")
struct PatternSendProcessTests {
  @Test func anEntryOfTheLEDDirectoryThatIsNoLEDIsPassedOverByAPattern() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("input3::capslock")
    try fixture.addLED("input4::numlock")
    try FileManager.default.createDirectory(
      atPath: fixture.ledsPath + "/junk", withIntermediateDirectories: true)
    // Before: exit 77, "Permission denied" and the udev advice for junk/brightness.
    let outcome = try runMorsetorch("send", "--led", "*", "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.isEmpty, "\(outcome)")
  }
}

@Suite("send --dry-run, as a process")
struct DryRunProcessTests {
  @Test func dryRunPrintsTheTimelineAtOnceAndNeedsNoLED() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      ["send", "--dry-run", "--unit", "10", "SOS"], ledsDirectory: fixture.root + "/none")
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    try #require(lines.count == 20, "\(outcome)")  // header, 17 steps, total, final newline
    #expect(lines[0] == TimelineFormatter.header)
    let steps = lines[1...17].map { $0.split(separator: " ").map(String.init) }
    #expect(steps.map { $0[1] } == (0..<17).map { $0.isMultiple(of: 2) ? "on" : "off" })
    #expect(steps.first.map { Array($0.prefix(4)) } == ["0", "on", "10", "S"])
    #expect(steps.last.map { Array($0.prefix(4)) } == ["260", "on", "10", "S"])
    #expect(lines[18] == "total 270 ms in 17 steps")
    #expect(lines[19].isEmpty)
  }

  @Test func dryRunDoesNotWaitForTheVirtualTime() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      ["send", "--dry-run", "--unit", "10000", "SOS"], ledsDirectory: fixture.root + "/none",
      timeout: .seconds(10))
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput.hasSuffix("total 270000 ms (4 min 30 s) in 17 steps\n"), "\(outcome)")
    #expect(outcome.elapsed < .seconds(5))
  }

  @Test func dryRunLeavesAnExistingLEDAlone() throws {
    let fixture = try timerFixture()
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch("send", "--dry-run", "--led", flash, "E", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput.hasSuffix("total 100 ms in 1 step\n"), "\(outcome)")
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func dryRunReadsStandardInput() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch(
      "send", "--dry-run", "--unit", "10", in: fixture, input: "E\nT\n")
    #expect(outcome.exitStatus == 0, "\(outcome)")
    // E (10), a word gap between the lines (70), T (30).
    let lines = outcome.standardOutput.split(separator: "\n").map {
      $0.split(separator: " ").map(String.init)
    }
    #expect(
      lines.dropFirst() == [
        ["0", "on", "10", "E", "."], ["10", "off", "70", "(word", "gap,", "next", "line)"],
        ["80", "on", "30", "T", "-"], ["total", "110", "ms", "in", "3", "steps"],
      ], "\(outcome)")
  }
}

@Suite("encode, decode, list and the tool, as a process")
struct CommandProcessTests {
  @Test func encodeText() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("encode", "SOS", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == "... --- ...\n")
    #expect(outcome.standardError.isEmpty)
  }

  @Test func encodeTheHelpExample() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("encode", "Hello,", "world", in: fixture)
    #expect(outcome.standardOutput == ".... . .-.. .-.. --- --..-- / .-- --- .-. .-.. -..\n")
  }

  @Test func encodeStandardInputLineByLine() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("encode", in: fixture, input: "SOS\nE\n\nT")
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == "... --- ...\n.\n\n-\n")
  }

  @Test(arguments: [("encode", "SOS\n", "... --- ..."), ("decode", "... --- ...\n", "SOS")])
  func aStreamIsConvertedLineByLineThoughTheOutputIsBuffered(
    command: String, line: String, converted: String
  ) throws {
    let fixture = try TemporaryLEDDirectory()
    let child = try MorsetorchProcess([command], ledsDirectory: fixture.ledsPath)
    // The input stays open: each line must come out while the next is awaited (its line
    // break comes with the next line, which may continue it).
    try child.write(line)
    #expect(eventually { child.standardOutputSoFar == converted }, "\(child.standardOutputSoFar)")
    try child.write(line)
    #expect(eventually { child.standardOutputSoFar == converted + "\n" + converted })
    child.closeInput()
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 0)
    #expect(outcome.standardOutput == converted + "\n" + converted + "\n")
  }

  @Test(arguments: [["send", "--dry-run"], ["send", "--dry-run", "--edges"]])
  func aDryRunOfAStreamShowsEachLinesTimelineThoughTheOutputIsBuffered(command: [String]) throws {
    let fixture = try TemporaryLEDDirectory()
    let child = try MorsetorchProcess(command, ledsDirectory: fixture.ledsPath)
    // "E": one dot; its line (or its two edges) must come out while the input stays open.
    try child.write("E\n")
    let dot = command.contains("--edges") ? "0.100000 0" : "E ."
    #expect(eventually { child.standardOutputSoFar.contains(dot) }, "\(child.standardOutputSoFar)")
    try child.write("T\n")
    let dash = command.contains("--edges") ? "1.100000 0" : "T -"
    #expect(eventually { child.standardOutputSoFar.contains(dash) }, "\(child.standardOutputSoFar)")
    child.closeInput()
    #expect(try child.wait().exitStatus == 0)
  }

  @Test func encodeUnknownCharacter() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("encode", in: fixture, input: "E\nE€\n")
    #expect(outcome.exitStatus == 65, "\(outcome)")
    #expect(outcome.standardOutput == ".\n")
    #expect(outcome.standardError.contains("line 2, column 2"), "\(outcome)")
  }

  @Test func decodeCode() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("decode", "...", "---", "...", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == "SOS\n")
  }

  @Test func decodeStandardInput() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("decode", "-", in: fixture, input: "... --- ...\n. / -\n")
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == "SOS\nE T\n")
  }

  @Test func decodeUnknownCodeNamesItsColumn() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("decode", "... .-.-.-.-.- ...", in: fixture)
    #expect(outcome.exitStatus == 65, "\(outcome)")
    #expect(outcome.standardError.contains("line 1, column 5"), "\(outcome)")
    #expect(outcome.standardError.contains(".-.-.-.-.-"), "\(outcome)")
    // The rest is decoded; the unknown code shows as `receive` shows it.
    #expect(outcome.standardOutput == "S[.-.-.-.-.-]S\n", "\(outcome)")
  }

  @Test func decodeNamesEveryUnknownCodeAndDecodesTheRest() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch(
      "decode", in: fixture, input: "...... --- ...\n.- / ......\n")
    #expect(outcome.exitStatus == 65, "\(outcome)")
    #expect(outcome.standardOutput == "[......]OS\nA [......]\n", "\(outcome)")
    let lines = outcome.standardError.split(separator: "\n")
    #expect(lines.count == 2, "\(outcome)")
    #expect(lines.first?.hasPrefix("morsetorch: \"......\" at line 1, column 1") == true)
    #expect(lines.last?.hasPrefix("morsetorch: \"......\" at line 2, column 6") == true)
  }

  @Test func decodeErrorOnLineTwo() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("decode", in: fixture, input: "... ---\n.-.-.-.-.-\n")
    #expect(outcome.exitStatus == 65, "\(outcome)")
    #expect(outcome.standardOutput == "SO\n[.-.-.-.-.-]\n")
    #expect(outcome.standardError.contains("line 2, column 1"), "\(outcome)")
  }

  @Test func listShowsEveryLEDSortedWithItsState() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(flash, maxBrightness: 255, brightness: 0, trigger: "none [timer] heartbeat")
    try fixture.addLED(
      "input3::capslock", maxBrightness: 1, brightness: 1, trigger: "none [kbd-capslock]")
    try fixture.addLED("a:red:status", maxBrightness: 1, brightness: 0, trigger: nil)
    // Not LEDs: a stray file and a dangling symlink.
    try Data().write(to: URL(fileURLWithPath: fixture.ledsPath + "/README"))
    try FileManager.default.createSymbolicLink(
      atPath: fixture.ledsPath + "/gone", withDestinationPath: fixture.root + "/nowhere")
    let outcome = try runMorsetorch("list", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
    let rows = lines.map { $0.split(separator: " ").map(String.init) }
    #expect(
      rows == [
        ["NAME", "MAX", "TRIGGER", "BRIGHTNESS", "WRITABLE"],
        // No trigger file: nothing to take away, and `send` works with brightness alone.
        ["a:red:status", "1", "?", "0", "yes"],
        ["input3::capslock", "1", "kbd-capslock", "1", "yes"],
        [flash, "255", "timer", "0", "yes"],
      ], "\(outcome)")
    // The columns line up under the header.
    for column in ["MAX", "TRIGGER", "BRIGHTNESS", "WRITABLE"] {
      let offset = lines.first?.range(of: column)?.lowerBound.utf16Offset(in: lines[0])
      for (line, row) in zip(lines.dropFirst(), rows.dropFirst()) {
        let value = row[rows[0].firstIndex(of: column) ?? 0]
        let start = line.index(line.startIndex, offsetBy: offset ?? 0)
        #expect(line[start...].hasPrefix(value), "\(column) in \(line.debugDescription)")
      }
    }
  }

  @Test(.enabled(if: MorsetorchProcess.canRunUnprivileged, "needs setpriv(1) when run as root"))
  func listSaysWhenTheLEDIsNotWritable() throws {
    let fixture = try timerFixture()
    if getuid() != 0 { try fixture.setPermissions(0o444, of: "brightness", of: flash) }
    let child = try MorsetorchProcess(
      ["list"], ledsDirectory: fixture.ledsPath, launch: .unprivileged)
    child.closeInput()
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let row = outcome.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
    #expect(row.hasPrefix(flash), "\(outcome)")
    // Everything send would write, the timer's settings (to put them back) included.
    #expect(row.hasSuffix("no (brightness, trigger, delay_on, delay_off)"), "\(outcome)")
  }

  @Test func listWithoutClassDirectory() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(["list"], ledsDirectory: fixture.root + "/missing")
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardOutput.isEmpty)
    #expect(outcome.standardError.contains("no LED class directory"), "\(outcome)")
    // A new user with no LED learns how to try the tool all the same.
    #expect(outcome.standardError.contains("morsetorch send --preview SOS"), "\(outcome)")
    #expect(outcome.standardError.contains("morsetorch send --dry-run SOS"), "\(outcome)")
  }

  @Test func listOfAnEmptyClassDirectory() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("list", in: fixture)
    // Nothing to use, as with no class directory (and `list --gpio` with no chip).
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardOutput.isEmpty)
    #expect(outcome.standardError.contains("no LEDs"), "\(outcome)")
    #expect(outcome.standardError.contains("--preview"), "\(outcome)")
  }

  @Test func listTakesNoOperands() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("list", "white:flash", in: fixture)
    #expect(outcome.exitStatus == 64, "\(outcome)")
  }

  @Test func printsTheVersion() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("--version", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == "morsetorch \(version)\n")
  }

  @Test(arguments: [
    (["--help"], HelpText.tool), (["-h"], HelpText.tool), (["help"], HelpText.tool),
    (["send", "--help"], HelpText.send.text), (["send", "-h", "E"], HelpText.send.text),
    (["help", "send"], HelpText.send.text), (["encode", "--help"], HelpText.encode.text),
    (["decode", "--help"], HelpText.decode.text), (["list", "--help"], HelpText.list.text),
    (["help", "list"], HelpText.list.text), (["stop", "--help"], HelpText.stop.text),
    (["status", "--help"], HelpText.status.text),
    (["alphabet", "--help"], HelpText.alphabet.text),
    (["receive", "--help"], HelpText.receive.text), (["help", "receive"], HelpText.receive.text),
    (["help", "--help"], HelpText.help.text),
  ])
  func help(_ arguments: [String], _ expected: String) throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(arguments, ledsDirectory: fixture.ledsPath)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == expected + "\n")
    #expect(outcome.standardError.isEmpty)
  }

  @Test(arguments: [
    ([], "no command"), (["blink"], "unknown command 'blink'"),
    (["--frobnicate"], "unknown option '--frobnicate'"), (["help", "blink"], "'blink'"),
    (["send", "--frobnicate", "E"], "unknown option '--frobnicate' for 'send'"),
    (["encode", "--wpm", "5", "E"], "unknown option '--wpm' for 'encode'"),
  ])
  func usageErrors(_ arguments: [String], _ message: String) throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(arguments, ledsDirectory: fixture.ledsPath)
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(outcome.standardOutput.isEmpty)
    #expect(outcome.standardError.contains(message), "\(outcome)")
  }

  @Test func unknownOptionOfTheToolGivesAdviceThatWorks() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("--frobnicate", in: fixture)
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(!outcome.standardError.contains("morsetorch morsetorch"), "\(outcome)")
  }

  @Test func decodeReadsCyrillicAndGreekWhenAsked() throws {
    let fixture = try TemporaryLEDDirectory()
    let russian = try runMorsetorch("decode", "--alphabet", "russian", "... --- ...", in: fixture)
    #expect(russian.exitStatus == 0 && russian.standardOutput == "СОС\n", "\(russian)")
    let greek = try runMorsetorch("decode", "--alphabet", "greek", "... --- ...", in: fixture)
    #expect(greek.standardOutput == "ΣΟΣ\n", "\(greek)")
    let bad = try runMorsetorch("decode", "--alphabet", "klingon", "...", in: fixture)
    #expect(bad.exitStatus == 64, "\(bad)")
    #expect(bad.standardError.contains("cyrillic"), "\(bad)")
  }

  @Test func theAlphabetHasAHomeAndErrorsPointThere() throws {
    let fixture = try TemporaryLEDDirectory()
    let alphabet = try runMorsetorch("alphabet", in: fixture)
    #expect(alphabet.exitStatus == 0, "\(alphabet)")
    let rows = alphabet.standardOutput.split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    // Every printable ASCII character but the space has a row: its signal or what it is sent as.
    for value in UInt8(0x21)...UInt8(0x7E) {
      let character = Character(UnicodeScalar(value))
      let isListed = rows.contains { $0.first == character && $0.dropFirst().first == " " }
      #expect(isListed || character.isLowercase, "\(character) has no row")
    }
    #expect(rows.contains { $0.hasPrefix("Ж") }, "Cyrillic")
    #expect(rows.contains { $0.hasPrefix("Ω") }, "Greek")
    #expect(rows.contains { $0.hasPrefix("<SK>") }, "prosigns")
    let error = try runMorsetorch("encode", "€", in: fixture)
    #expect(error.exitStatus == 65)
    #expect(error.standardError.contains("morsetorch alphabet"), "\(error)")
  }

  /// Runs `morsetorch ARGUMENTS…` with raw `bytes` on standard input.
  private func run(_ arguments: [String], bytes: [UInt8], in fixture: TemporaryLEDDirectory)
    throws -> MorsetorchProcess.Outcome
  {
    let child = try MorsetorchProcess(arguments, ledsDirectory: fixture.ledsPath)
    try child.write(bytes: bytes)
    child.closeInput()
    return try child.wait()
  }

  @Test func skipUnknownAlsoSkipsBytesThatAreNotUTF8() throws {
    let fixture = try TemporaryLEDDirectory()
    let bytes: [UInt8] = [0x61, 0xFF, 0x62, 0x0A]  // a, a stray byte, b
    let skipped = try run(["encode", "--skip-unknown"], bytes: bytes, in: fixture)
    // Before: exit 65, as without the option.
    #expect(skipped.exitStatus == 0, "\(skipped)")
    #expect(skipped.standardOutput == ".- -...\n", "\(skipped)")
    #expect(skipped.standardError.contains("not UTF-8"), "\(skipped)")
    #expect(skipped.standardError.contains("line 1, column 2"), "\(skipped)")
    let strict = try run(["encode"], bytes: bytes, in: fixture)
    #expect(strict.exitStatus == 65, "\(strict)")
    let sent = try run(
      ["send", "--dry-run", "--skip-unknown", "--unit", "1"], bytes: bytes, in: fixture)
    #expect(sent.exitStatus == 0, "\(sent)")
    #expect(sent.standardOutput.contains("b -..."), "\(sent)")
  }

  @Test(arguments: [["encode"], ["decode"], ["send", "--dry-run", "--unit", "1"]])
  func aByteOrderMarkAtTheStartOfInputIsIgnored(command: [String]) throws {
    let fixture = try TemporaryLEDDirectory()
    let text = command[0] == "decode" ? "... --- ...\n" : "SOS\n"
    let outcome = try run(command, bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8), in: fixture)
    // Before: U+FEFF was a character without a signal (65), or a stray code for decode.
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.isEmpty, "\(outcome)")
  }

  @Test func realLogLinesStreamWithoutOptions() throws {
    let fixture = try TemporaryLEDDirectory()
    let lines = """
      Nov 22 09:12:01 pi systemd[1]: Started session-4.scope - Session 4 of User pi.
      Nov 22 09:12:02 pi kernel: [  123.456789] usb 1-1.3: new high-speed USB device number 5 using dwc_otg
      [    2.345678] brcmfmac: brcmf_c_preinit_dcmds: Firmware: BCM4345/6 wl0: Jan  4 2021 <ver> *
      2026-11-22 09:00:01 status half-configured libc6:amd64 2.36-9+deb12u4
      pi@raspberrypi:~ $ ls | grep `x` {a,b} #1 ^C \\ ~
      """
    // Before: exit 65 at the first `[`.
    let outcome = try runMorsetorch(
      "send", "--dry-run", "--unit", "1", in: fixture, input: lines + "\n")
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.isEmpty, "\(outcome)")
  }

  @Test func aHugeMaxBrightnessIsNoCrash() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(flash, maxBrightness: Int.max, brightness: 0, trigger: "[none]")
    let outcome = try runMorsetorch(
      "send", "--led", flash, "--unit", "1", "--brightness", "50%", "E", in: fixture)
    // Before: an arithmetic overflow trapped (SIGILL) with the LED claimed and a record left.
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(try fixture.read("brightness", of: flash) == "0\n")
  }

  @Test func aBrightnessOverTheMaximumIsTheMaximumAndSaidSo() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(flash, maxBrightness: 255, brightness: 0, trigger: "[none]")
    let recorder = AttributeRecorder("brightness", of: flash, in: fixture)
    let outcome = try runMorsetorch(
      "send", "--led", flash, "--unit", "30", "--brightness", "300", "E", in: fixture)
    let values = recorder.stop()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(values.contains("255\n"), "\(values)")
    // Before: clamped without a word.
    #expect(
      outcome.standardError.contains("--brightness 300 is over the max_brightness of LED "
        + "\(flash), 255: 255 used"), "\(outcome)")
  }

  @Test func repeatSendsTheMessageAgainAfterThePause() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch(
      "send", "--dry-run", "--unit", "10", "--repeat", "3", "--pause", "1s", "E", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let lines = outcome.standardOutput.split(separator: "\n").map {
      $0.split(separator: " ").joined(separator: " ")
    }
    #expect(
      Array(lines.dropFirst()) == [
        "0 on 10 E .", "10 off 1000 (pause, round 2)", "1010 on 10 E .",
        "1020 off 1000 (pause, round 3)", "2020 on 10 E .", "total 2030 ms (2 s) in 5 steps",
      ], "\(outcome)")
    let byDefault = try runMorsetorch(
      "send", "--dry-run", "--unit", "10", "--repeat", "2", "E", in: fixture)
    #expect(byDefault.standardOutput.contains("70  (pause, round 2)"), "a word gap: \(byDefault)")
  }

  @Test(arguments: [
    ["send", "--repeat", "2", "--loop", "E"], ["send", "--repeat", "0", "E"],
    ["send", "--pause", "2s", "E"], ["send", "--repeat", "2", "--pause", "soon", "E"],
    ["send", "--loop", "--dry-run", "E"], ["send", "--loop"], ["send", "--repeat", "2", "-"],
  ])
  func repeatAndLoopRefuseWhatMakesNoSense(arguments: [String]) throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      arguments, ledsDirectory: fixture.ledsPath, input: "E\n")
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(outcome.standardError.contains("--"), "\(outcome)")
  }

  @Test func aLoopRunsUntilStoppedAndStatusCountsItsRounds() throws {
    let fixture = try timerFixture()
    let child = try start(
      "send", "--led", flash, "--loop", "--pause", "35ms", "--unit", "5", "E", in: fixture)
    var status = try runMorsetorch("status", in: fixture)
    for _ in 0..<100 where !status.standardOutput.contains("looping") {
      usleep(50_000)
      status = try runMorsetorch("status", in: fixture)
    }
    #expect(status.standardOutput.contains(", looping)"), "\(status)")
    let stop = try runMorsetorch("stop", in: fixture)
    #expect(stop.exitStatus == 0, "\(stop)")
    #expect(try child.wait().exitStatus == 143)
    #expect(try fixture.read("trigger", of: flash) == "timer\n")
  }
}
