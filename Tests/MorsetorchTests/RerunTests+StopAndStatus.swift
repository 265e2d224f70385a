import Foundation
import Glibc
import MorseTestSupport
import Testing

extension RerunTests {
  @Test func stopCancelsAndSaysWhat() throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture)
    let stop = try run(["stop", "--led", led], in: fixture)
    #expect(stop.exitStatus == 0, "\(stop)")
    #expect(stop.standardOutput.contains("pid \(first.processIdentifier)"), "\(stop)")
    #expect(try first.wait().exitStatus == 143)
    try expectTimerRestored(fixture)
    let again = try run(["stop", "--led", led], in: fixture)
    #expect(again.exitStatus == 3, "\(again)")
    #expect(again.standardError.contains("nothing is being sent"), "\(again)")
  }

  @Test func stopWithItsOutputClosedStillStopsEverythingThenFails() throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture)
    let waiter = try start(["send", "--led", led, "--wait", "E"], in: fixture)
    let queued = eventually { leftovers(fixture).contains { $0.contains(".wait.") } }
    try #require(queued)
    let stop = try MorsetorchProcess.run(
      ["stop", "--led", led], ledsDirectory: fixture.ledsPath, launch: .outputClosed)
    // Before: the first failed write ended it with 0, after the waiter but before the sender.
    #expect(stop.exitStatus == 74, "\(stop)")
    #expect(stop.standardError.contains("standard output"), "\(stop)")
    #expect(try waiter.wait().exitStatus == 143)
    #expect(try first.wait().exitStatus == 143, "the running transmission was stopped too")
    try expectTimerRestored(fixture)
  }

  @Test(.enabled(if: getuid() == 0, "needs root to run a second user"))
  func aGroupMemberStopsAnotherUsersTransmissionWithoutSignallingIt() throws {
    let fixture = try fixture()
    try MorsetorchProcess.shareRuntimeDirectory(runtimeDirectory(of: fixture))
    let first = try startLongSend(in: fixture)  // root's
    let stop = try MorsetorchProcess.run(
      ["stop", "--led", led], ledsDirectory: fixture.ledsPath, launch: .groupMember)
    // Before: kill(2) on root's process failed with EPERM, and stop exited 74.
    #expect(stop.exitStatus == 0, "\(stop)")
    let outcome = try first.wait()
    #expect(outcome.exitStatus == 143, "\(outcome)")
    #expect(outcome.standardError.contains("stopped by pid"), "\(outcome)")
    try expectTimerRestored(fixture)
  }

  /// `stop` names the waiter it cancelled as well as the transmission (issue 31).
  @Test func stopSaysTheWaiterItCancelled() throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture)
    let waiter = try start(["send", "--led", led, "--wait", "--unit", "300", "TTT"], in: fixture)
    let queued = eventually { leftovers(fixture).contains { $0.contains(".wait.") } }
    try #require(queued)
    let stop = try run(["stop", "--led", led], in: fixture)
    #expect(stop.exitStatus == 0, "\(stop)")
    #expect(
      stop.standardOutput.contains(
        "stopped a sender waiting for LED \(led) (pid \(waiter.processIdentifier))"), "\(stop)")
    #expect(
      stop.standardOutput.contains(
        "stopped the transmission on LED \(led) (pid \(first.processIdentifier)"),
      "\(stop)")
    #expect(try waiter.wait().exitStatus == 143)
    #expect(try first.wait().exitStatus == 143)
    try expectTimerRestored(fixture)
  }

  @Test func stopWithoutLEDStopsEveryLEDAndItsWaiters() throws {
    let fixture = try fixture([led, "input3::capslock"])
    let first = try startLongSend(in: fixture)
    let second = try startLongSend(on: "input3::capslock", in: fixture)
    let waiter = try start(["send", "--led", led, "--wait", "E"], in: fixture)
    let queued = eventually { leftovers(fixture).contains { $0.contains(".wait.") } }
    try #require(queued)
    let stop = try run(["stop"], in: fixture)
    #expect(stop.exitStatus == 0, "\(stop)")
    #expect(try first.wait().exitStatus == 143)
    #expect(try second.wait().exitStatus == 143)
    #expect(try waiter.wait().exitStatus == 143)
    try expectTimerRestored(fixture)
    try expectTimerRestored(fixture, "input3::capslock")
  }

  @Test func statusShowsTextProcessAndProgress() throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture)
    let status = try run(["status"], in: fixture)
    #expect(status.exitStatus == 0, "\(status)")
    #expect(status.standardOutput.contains(led), "\(status)")
    #expect(status.standardOutput.contains("\"TTTTT\""), "\(status)")
    #expect(status.standardOutput.contains("pid \(first.processIdentifier)"), "\(status)")
    #expect(status.standardOutput.contains("of 5 characters"), "\(status)")
    let user = String(cString: getpwuid(geteuid()).pointee.pw_name)
    #expect(status.standardOutput.contains(", user \(user))"), "\(status)")
    #expect(!status.standardOutput.contains("stopped"), "\(status)")
    // Ctrl-Z (here SIGSTOP, which it cannot catch): its state is said.
    first.send(signal: SIGSTOP)
    for _ in 0..<200 where !isStopped(first.processIdentifier) { usleep(10_000) }
    let stopped = try run(["status"], in: fixture)
    #expect(
      stopped.standardOutput.contains(": stopped (Ctrl-Z or SIGSTOP) while sending"), "\(stopped)")
    first.send(signal: SIGCONT)
    first.send(signal: SIGTERM)
    #expect(try first.wait().exitStatus == 143)
    let idle = try run(["status", "--led", led], in: fixture)
    #expect(idle.exitStatus == 3, "\(idle)")
  }

  @Test(arguments: ["status", "stop"])
  func anLEDNameThatNamesNothingIsNotAnIdleLED(command: String) throws {
    let fixture = try fixture()
    let outcome = try run([command, "--led", "nope"], in: fixture)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains("no LED named \"nope\""), "\(outcome)")
    #expect(outcome.standardError.contains(led), "it lists the LEDs that exist: \(outcome)")
    #expect(!outcome.standardError.contains("nothing is being sent"), "\(outcome)")
  }

  @Test func statusOfAStreamSaysWhenItWaitsForInput() throws {
    let fixture = try fixture()
    let child = try MorsetorchProcess(
      ["send", "--led", led, "--unit", "5"], ledsDirectory: fixture.ledsPath)
    try child.write("E\n")
    // Line 1 sent, line 2 not typed yet: the transmitter is idle.
    var status = try run(["status", "--led", led], in: fixture)
    let isWaiting = try eventually {
      status = try run(["status", "--led", led], in: fixture)
      return status.standardOutput.contains("waiting for input (line 2)")
    }
    #expect(isWaiting, "\(status)")
    #expect(status.exitStatus == 0, "\(status)")
    #expect(status.standardOutput.contains("1 character begun"), "\(status)")
    #expect(!status.standardOutput.contains("sending"), "\(status)")
    child.closeInput()
    #expect(try child.wait().exitStatus == 0)
    try expectTimerRestored(fixture)
  }

  @Test(arguments: ["status", "stop"])
  func statusAndStopReportACorruptRecordToo(command: String) throws {
    let fixture = try fixture()
    let directory = runtimeDirectory(of: fixture)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    // Cut short, as a crash in the middle of writing it would leave it.
    try "morsetorch state record 2\npid 4".write(
      toFile: directory + "/\(led).state", atomically: false, encoding: .utf8)
    let outcome = try run([command, "--led", led], in: fixture)
    #expect(outcome.exitStatus == 3, "\(outcome)")
    let report = outcome.standardError.split(separator: "\n").filter {
      $0.contains("ignoring the state record")
    }
    #expect(report.count == 1, "\(outcome)")
    #expect(report.first?.contains(directory + "/\(led).state") == true, "\(outcome)")
    #expect(report.first?.contains("corrupt") == true, "\(outcome)")
    #expect(try fixture.read("trigger", of: led) == "none [timer] heartbeat\n")
  }

  /// Whether `/proc/PID/stat` says state `T`.
  private func isStopped(_ pid: Int32) -> Bool {
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    return stat.split(separator: ")").last?.hasPrefix(" T") == true
  }
}
