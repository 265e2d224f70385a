import Foundation
import Glibc
import LEDDriver
import MorseTestSupport
import Testing

extension SharedDirectoryAttackTests {
  /// While root restores an LED from the member's record, the member signals every thread of
  /// root's process over and over (SIGSTOP, then SIGKILL), as `kill` on a thread ID allows
  /// her for any thread whose real or saved user ID is hers. Root must neither stop nor die:
  /// checking what she may write gives her no handle on it.
  @Test(arguments: [["status"], ["stop", "--led", "input3::capslock"]])
  func theMemberWhoseRecordRootRestoresCannotSignalRootsProcess(command: [String]) throws {
    let (fixture, runtime) = try SharedLED.make()
    // Settings of timer that are root's alone: each keeps root trying, as her, for a second.
    for setting in ["delay_on", "delay_off"] {
      try fixture.write("500\n", to: setting, of: "input3::capslock")
    }
    let saved = SavedLEDState(
      trigger: "timer", brightness: 0,
      triggerAttributes: [
        .init(name: "delay_on", content: "7"), .init(name: "delay_off", content: "9"),
      ])
    try SharedLED.plant(saved.fields, name: "input3::capslock", runtime: runtime)

    let root = try MorsetorchProcess(
      command, ledsDirectory: fixture.ledsPath, runtimeDirectory: runtime)
    root.closeInput()
    let attacker = try Self.signalEveryThread(of: root.processIdentifier)
    defer {
      attacker.terminate()
      kill(root.processIdentifier, SIGCONT)
    }
    let outcome = try root.wait(timeout: .seconds(20))

    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(try fixture.read("trigger", of: "input3::capslock") == "timer\n", "\(outcome)")
    #expect(try fixture.read("delay_on", of: "input3::capslock") == "500\n", "\(outcome)")
    #expect(outcome.standardError.contains("may not write"), "\(outcome)")
    #expect(!FileManager.default.fileExists(atPath: runtime + "/input3::capslock.state"))
  }

  /// A shell as the member that sends SIGSTOP and SIGKILL to every thread of `pid`, as fast
  /// as it can, until that process is gone.
  private static func signalEveryThread(of pid: Int32) throws -> Process {
    let script = """
      while [ -d /proc/$1 ]; do
        for thread in /proc/$1/task/*; do
          kill -STOP "${thread##*/}" 2>/dev/null
          kill -KILL "${thread##*/}" 2>/dev/null
        done
      done
      """
    let attacker = Process()
    attacker.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    attacker.arguments = [
      "--reuid=\(SharedLED.member)", "--regid=\(SharedLED.member)", "--clear-groups",
      "/bin/sh", "-c", script, "sh", "\(pid)",
    ]
    try attacker.run()
    return attacker
  }
}
