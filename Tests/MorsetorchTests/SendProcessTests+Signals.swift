import Glibc
import MorseTestSupport
import Testing

extension SendProcessTests {
  @Test(arguments: [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGHUP, "SIGHUP")])
  func signalStopsTheMessageAndRestoresTheLED(_ signal: Int32, _ name: String) throws {
    let fixture = try timerFixture()
    let child = try start("send", "--led", flash, "--unit", "500", "TTTT", in: fixture)
    let isOn = try eventually { try fixture.read("brightness", of: flash) == "255\n" }
    try #require(isOn, "the LED never went on")
    let signalled = ContinuousClock.now
    child.send(signal: signal)
    let outcome = try child.wait(timeout: .seconds(20))
    // Stopped, not ended: TTTT at a 500 ms unit would take 8 s (how fast a cancel is, is the
    // benchmark's `cancel`; a loaded machine must not fail this).
    #expect(ContinuousClock.now - signalled < .seconds(6), "ran on after the signal")
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
    let outcome = try child.wait(timeout: .seconds(20))
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
    let outcome = try child.wait(timeout: .seconds(20))
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
    let outcome = try child.wait(timeout: .seconds(20))
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
    let outcome = try child.wait(timeout: .seconds(20))
    #expect(outcome.exitStatus == 143, "\(outcome)")
    try expectTimerRestored(fixture)
  }
}
