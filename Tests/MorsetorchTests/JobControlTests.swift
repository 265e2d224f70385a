import Foundation
import Glibc
import MorseCorpus
import MorseTestSupport
import Testing

/// Ctrl-Z on a send (issue 31): the LED is put back while the job is stopped, and taken again
/// when it goes on. Before, `send --unit 2000 T` stopped by Ctrl-Z left brightness 255 for as
/// long as the job stayed stopped.
/// The state letter of /proc/PID/stat: "T" for stopped.
func state(of pid: Int32) -> String? {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let end = stat.lastIndex(of: ")")
  else { return nil }
  return stat[stat.index(end, offsetBy: 2)...].split(separator: " ").first.map(String.init)
}

@Suite("send, stopped and continued")
struct JobControlTests {
  private let flash = "white:flash"

  /// `send --unit 500 TTTT` on an LED with a timer trigger, in its first dash.
  private func startSendingADash() throws -> (TemporaryLEDDirectory, MorsetorchProcess) {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(
      flash, maxBrightness: 255, brightness: 7, trigger: "none [timer] heartbeat",
      attributes: ["delay_on": "100\n", "delay_off": "900\n"])
    let child = try MorsetorchProcess(
      ["send", "--led", flash, "--unit", "500", "TTTT"], ledsDirectory: fixture.ledsPath)
    child.closeInput()
    let isOn = try eventually { try fixture.read("brightness", of: flash) == "255\n" }
    try #require(isOn, "the LED never went on")
    return (fixture, child)
  }

  @Test(arguments: [SIGTSTP, SIGTTIN, SIGTTOU])
  func aStoppedSendPutsTheLEDBackAndTakesItAgainWhenContinued(_ signal: Int32) throws {
    let (fixture, child) = try startSendingADash()

    child.send(signal: signal)
    let stopped = eventually { state(of: child.processIdentifier) == "T" }
    #expect(stopped, "the process did not stop")
    // Put back while stopped: the trigger and its delays, the LED off.
    try expectTimerRestored(fixture)

    child.send(signal: SIGCONT)
    let taken = try eventually {
      try state(of: child.processIdentifier) != "T"
        && fixture.read("trigger", of: flash) == "none\n"
    }
    #expect(taken, "the LED was not taken again")

    child.send(signal: SIGTERM)
    let outcome = try child.wait(timeout: .seconds(20))
    #expect(outcome.exitStatus == 143, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  /// `stop` on a send stopped by Ctrl-Z: it ends (143), the LED as it was found.
  @Test func aStoppedSendIsEndedByStop() throws {
    let (fixture, child) = try startSendingADash()
    child.send(signal: SIGTSTP)
    try #require(eventually { state(of: child.processIdentifier) == "T" })
    let stop = try MorsetorchProcess.run(["stop", "--led", flash], ledsDirectory: fixture.ledsPath)
    #expect(stop.exitStatus == 0, "\(stop)")
    let outcome = try child.wait(timeout: .seconds(20))
    #expect(outcome.exitStatus == 143, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  /// Storms of job-control signals, each a random mix of stopping signals and SIGCONTs at
  /// random spacings from none to 1.5 ms, ending with a SIGCONT: after every one the send
  /// goes on with its LED taken again; a last storm with SIGTERM or SIGINT in it ends it with
  /// the LED put back. (A SIGCONT within a millisecond of a SIGTSTP used to be lost, leaving
  /// the sender stopped for good with the LED claimed.)
  @Test(arguments: [1 as UInt64, 2, 3])
  func noStormOfJobControlSignalsLeavesASendStopped(seed: UInt64) throws {
    var random = SplitMix64(state: seed)
    let (fixture, child) = try startSendingADash()
    let jobControl = [SIGTSTP, SIGTTIN, SIGTTOU, SIGCONT]
    func storm(with signals: [Int32]) {
      let count = Int.random(in: 1...8, using: &random)
      let storm = (0..<count).map { _ in signals.randomElement(using: &random)! } + [SIGCONT]
      for signal in storm {
        child.send(signal: signal)
        usleep(UInt32.random(in: 0...1_500, using: &random))
      }
    }
    for round in 1...12 {
      storm(with: jobControl)
      let going = try eventually(within: .seconds(3)) {
        try state(of: child.processIdentifier) != "T"
          && fixture.read("trigger", of: flash) == "none\n"
      }
      try #require(going, "stopped for good after storm \(round) of seed \(seed)")
    }
    storm(with: jobControl + [SIGTERM, SIGINT])
    child.send(signal: SIGTERM)
    child.send(signal: SIGCONT)
    let outcome = try child.wait(timeout: .seconds(20))
    #expect([130, 143].contains(outcome.exitStatus), "\(outcome)")
    try expectTimerRestored(fixture)
  }
}
