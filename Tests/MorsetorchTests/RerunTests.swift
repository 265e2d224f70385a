import Foundation
import Glibc
import LEDDriver
import LinuxSystem
import MorseCore
import MorsePlayer
import MorseTestSupport
import Testing
import TransmitterControl

// One transmitter per LED, across processes (issue 3): the built executable run as child
// processes sharing one temporary LED class directory and one runtime directory.

private let led = "white:flash"

/// A fixture with `names` LEDs on the timer trigger (delays 100/900), and its runtime directory.
private func fixture(_ names: [String] = [led]) throws -> TemporaryLEDDirectory {
  let fixture = try TemporaryLEDDirectory()
  for name in names {
    try fixture.addLED(
      name, maxBrightness: 255, brightness: 0, trigger: "none [timer] heartbeat",
      attributes: ["delay_on": "100\n", "delay_off": "900\n"])
  }
  return fixture
}

/// The runtime directory the process helper gives the children of `fixture`.
private func runtimeDirectory(of fixture: TemporaryLEDDirectory) -> String {
  fixture.root + "/run"
}

private func start(_ arguments: [String], in fixture: TemporaryLEDDirectory) throws
  -> MorsetorchProcess
{
  let child = try MorsetorchProcess(arguments, ledsDirectory: fixture.ledsPath)
  child.closeInput()
  return child
}

private func run(_ arguments: [String], in fixture: TemporaryLEDDirectory, input: String = "")
  throws -> MorsetorchProcess.Outcome
{
  try MorsetorchProcess.run(arguments, ledsDirectory: fixture.ledsPath, input: input)
}

/// Starts a long transmission on `name` and waits until its LED is on.
private func startLongSend(
  on name: String = led, in fixture: TemporaryLEDDirectory, unit: String = "300",
  extra: [String] = []
) throws -> MorsetorchProcess {
  let child = try start(["send", "--led", name, "--unit", unit] + extra + ["TTTTT"], in: fixture)
  let isOn = try eventually { try fixture.read("brightness", of: name) != "0\n" }
  try #require(isOn, "the first transmission never switched the LED on")
  return child
}

/// The files morsetorch left in the runtime directory, other than lock files and sockets.
private func leftovers(_ fixture: TemporaryLEDDirectory) -> [String] {
  let names =
    (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory(of: fixture)))
    ?? []
  // The sockets that take stop requests live as long as their owners, like the locks.
  return names.filter {
    !$0.hasSuffix(".lock") && !$0.hasSuffix(".tickets") && !$0.hasSuffix(".stop")
  }.sorted()
}

@Suite("one transmitter per LED")
struct RerunTests {
  @Test func rerunCancelsTheRunningTransmissionAndSendsNothing() throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture)
    let brightness = AttributeRecorder("brightness", of: led, in: fixture)
    let second = try run(["send", "--led", led, "--unit", "1", "EEEE"], in: fixture)
    // Not 0: a script can tell that EEEE was never sent.
    #expect(second.exitStatus == 4, "\(second)")
    #expect(second.standardOutput.contains("cancelled"), "\(second)")
    #expect(second.standardOutput.contains("nothing was sent"), "\(second)")
    #expect(second.standardOutput.contains("pid \(first.processIdentifier)"), "\(second)")
    #expect(second.standardOutput.contains("TTTTT"), "\(second)")
    // Other text than the one cancelled: the way to send it instead, or after.
    #expect(second.standardError.contains("--replace"), "\(second)")
    #expect(second.standardError.contains("--wait"), "\(second)")
    let firstOutcome = try first.wait()
    #expect(firstOutcome.exitStatus == 143, "\(firstOutcome)")
    try expectTimerRestored(fixture)
    // The second run sent nothing: once the LED went off, it stayed off.
    let seen = brightness.stop()
    if let off = seen.firstIndex(of: "0\n") {
      #expect(!seen[off...].contains("255\n"), "\(seen)")
    }
    #expect(leftovers(fixture).isEmpty, "\(leftovers(fixture))")
  }

  /// The same command again is the off switch it is documented to be: no advice.
  @Test func rerunWithTheSameTextIsAPlainOffSwitch() throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture)
    let second = try run(["send", "--led", led, "--unit", "300", "TTTTT"], in: fixture)
    #expect(second.exitStatus == 4, "\(second)")
    #expect(!second.standardError.contains("--replace"), "\(second)")
    #expect(try first.wait().exitStatus == 143)
  }

  @Test func replaceCancelsThenSends() throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture)
    let brightness = AttributeRecorder("brightness", of: led, in: fixture)
    let second = try run(
      ["send", "--led", led, "--unit", "150", "--brightness", "9", "--replace", "E"], in: fixture)
    #expect(second.exitStatus == 0, "\(second)")
    #expect(try first.wait().exitStatus == 143)
    let seen = brightness.stop()
    // The first one's LED went off; then the replacement switched it on at its own brightness.
    let firstOff = try #require(seen.firstIndex(of: "0\n"), "\(seen)")
    #expect(seen[firstOff...].contains("9\n"), "\(seen)")
    try expectTimerRestored(fixture)
  }

  @Test func waitingSendersAreServedInArrivalOrder() throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture, unit: "100")
    let brightness = AttributeRecorder("brightness", of: led, in: fixture)
    var waiters: [MorsetorchProcess] = []
    for (index, value) in ["11", "12", "13"].enumerated() {
      waiters.append(
        try start(
          ["send", "--led", led, "--unit", "80", "--brightness", value, "--wait", "E"],
          in: fixture))
      // Each waiter has its ticket before the next one starts.
      let queued = eventually {
        leftovers(fixture).filter { $0.contains(".wait.") }.count == index + 1
      }
      try #require(queued, "waiter \(index + 1) never queued: \(leftovers(fixture))")
    }
    // status names the running sender and the three waiting ones, in order.
    let status = try run(["status", "--led", led], in: fixture)
    let pids = waiters.map { String($0.processIdentifier) }.joined(separator: ", ")
    #expect(status.standardOutput.contains("pid \(first.processIdentifier)"), "\(status)")
    #expect(status.standardOutput.contains("3 waiting (pid \(pids))"), "\(status)")
    #expect(try first.wait().exitStatus == 0, "the running transmission was not disturbed")
    for waiter in waiters {
      let outcome = try waiter.wait()
      #expect(outcome.exitStatus == 0, "\(outcome)")
    }
    let order = brightness.stop().filter { ["11\n", "12\n", "13\n"].contains($0) }
    #expect(order == ["11\n", "12\n", "13\n"])
    try expectTimerRestored(fixture)
    #expect(leftovers(fixture).isEmpty, "\(leftovers(fixture))")
  }

  @Test func aSignalWhileWaitingForTheLEDEndsTheWaitAndSendsNothing() throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture)
    let waiter = try start(["send", "--led", led, "--unit", "1", "--wait", "E"], in: fixture)
    let queued = eventually { leftovers(fixture).contains { $0.contains(".wait.") } }
    try #require(queued, "the waiter never queued: \(leftovers(fixture))")
    // It says what it waits for, and for whom (issue 31: nothing was shown).
    let said = eventually { waiter.standardErrorSoFar.contains("waiting for LED") }
    #expect(said, "\(waiter.standardErrorSoFar)")
    waiter.send(signal: SIGUSR1)
    let outcome = try waiter.wait(timeout: .seconds(5))
    #expect(outcome.exitStatus == 128 + SIGUSR1, "\(outcome)")
    #expect(outcome.standardError.contains("stopped by SIGUSR1"), "\(outcome)")
    #expect(outcome.standardError.contains("nothing was sent"), "\(outcome)")
    #expect(
      outcome.standardError.contains(
        "waiting for LED \(led): pid \(first.processIdentifier) is sending \"TTTTT\""),
      "\(outcome)")
    #expect(first.isRunning, "the running transmission was disturbed")
    first.send(signal: SIGTERM)
    #expect(try first.wait().exitStatus == 143)
    try expectTimerRestored(fixture)
  }

  @Test(arguments: [SIGINT, SIGTERM])
  func aSignalEndsTheWaitForAHeldTicketsLockAndClaimsNothing(signal: Int32) throws {
    let fixture = try fixture()
    let runtime = runtimeDirectory(of: fixture)
    try FileManager.default.createDirectory(
      atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    // Another process holds the tickets lock and never lets go: here, the test itself.
    let tickets = try FileDescriptor.open(
      runtime + "/" + led + ".tickets", [.readWrite, .create], permissions: 0o664)
    try #require(try tickets.lock(exclusive: true, wait: false))
    let untouched = try ["trigger", "brightness"].map { try fixture.read($0, of: led) }
    let waiter = try start(["send", "--led", led, "--wait", "E"], in: fixture)
    let isWaiting = eventually { waiter.hasOpen(runtime + "/" + led + ".tickets") }
    try #require(isWaiting, "the waiter never opened the tickets file")
    waiter.send(signal: signal)
    let outcome = try waiter.wait(timeout: .seconds(10))
    #expect(outcome.exitStatus == 128 + signal, "\(outcome)")
    #expect(outcome.standardError.contains("nothing was sent"), "\(outcome)")
    #expect(leftovers(fixture).isEmpty, "\(leftovers(fixture))")
    let lockPath = runtime + "/" + led + ".lock"
    if FileManager.default.fileExists(atPath: lockPath) {
      let lock = try FileDescriptor.open(lockPath, [.readOnly])
      #expect(try lock.lockHolder() == nil, "the device is still locked")
    }
    #expect(try ["trigger", "brightness"].map { try fixture.read($0, of: led) } == untouched)
  }

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

  @Test func aRerunAlsoStopsTheSendersWaitingSoTheLEDStops() throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture)
    let waiter = try start(["send", "--led", led, "--wait", "--unit", "300", "TTT"], in: fixture)
    let queued = eventually { leftovers(fixture).contains { $0.contains(".wait.") } }
    try #require(queued)
    let rerun = try run(["send", "--led", led, "E"], in: fixture)
    #expect(rerun.exitStatus == 4, "\(rerun)")
    #expect(
      rerun.standardOutput.contains("1 waiting (pid \(waiter.processIdentifier))"), "\(rerun)")
    #expect(try first.wait().exitStatus == 143)
    // Before: the waiter took the LED and sent its text.
    #expect(try waiter.wait().exitStatus == 143)
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
      stop.standardOutput.contains("stopped the transmission on LED \(led) (pid \(first.processIdentifier)"),
      "\(stop)")
    #expect(try waiter.wait().exitStatus == 143)
    #expect(try first.wait().exitStatus == 143)
    try expectTimerRestored(fixture)
  }

  @Test func aRerunStopsASenderStoppedWithSIGSTOPAtOnceAndCleanly() throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture)
    kill(first.processIdentifier, SIGSTOP)
    let rerun = try run(["send", "--led", led, "E"], in: fixture)
    #expect(rerun.exitStatus == 4, "\(rerun)")
    // Before: five silent seconds, then SIGKILL (137) and a restore by the rerun.
    let outcome = try first.wait()
    #expect(outcome.exitStatus == 143, "SIGTERM with SIGCONT lets it restore itself: \(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test func aWaitingSenderBlocksInsteadOfPolling() throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture)
    let waiter = try start(["send", "--led", led, "--wait", "E"], in: fixture)
    let queued = eventually { leftovers(fixture).contains { $0.contains(".wait.") } }
    try #require(queued)
    // Context switches of all its threads over a second of waiting. Polling every 5 ms
    // (before) made about 200 in every second; blocking in the kernel makes next to none once
    // it has settled. Up to three seconds are sampled: under qemu-user (the arm64 test run)
    // the first one can still hold the end of its slow start.
    var perSecond: [Int] = []
    for _ in 0..<3 {
      let before = contextSwitches(of: waiter.processIdentifier)
      usleep(1_000_000)
      perSecond.append(contextSwitches(of: waiter.processIdentifier) - before)
      if perSecond.last.map({ $0 < 20 }) == true { break }
    }
    #expect(
      perSecond.contains { $0 < 20 }, "context switches per second while waiting: \(perSecond)")
    _ = try run(["stop", "--led", led], in: fixture)
    #expect(try first.wait().exitStatus == 143)
    #expect(try waiter.wait().exitStatus == 143)
  }

  @Test func aPlantedTicketWithTheLargestNumberNeitherCrashesNorStopsAWait() throws {
    let fixture = try fixture()
    let directory = runtimeDirectory(of: fixture)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o700)
    // Int.max: counting on from it overflowed (a crash of every --wait sender, root's too).
    let huge = directory + "/" + led + ".wait.09223372036854775807"
    try Data().write(to: URL(fileURLWithPath: huge))
    let sent = try run(["send", "--wait", "--led", led, "--unit", "1", "E"], in: fixture)
    #expect(sent.exitStatus == 0, "\(sent)")
    try expectTimerRestored(fixture)
    // The largest number a ticket may have: no ticket can follow it, which is said plainly.
    try FileManager.default.removeItem(atPath: huge)
    let largest = directory + "/" + led + ".wait.00999999999999999999"
    try Data().write(to: URL(fileURLWithPath: largest))
    let before = try LEDSnapshot(of: led, in: fixture)
    let refused = try run(["send", "--wait", "--led", led, "--unit", "1", "E"], in: fixture)
    #expect(refused.exitStatus == 78, "\(refused)")
    #expect(refused.standardError.contains("no ticket may follow its number"), "\(refused)")
    #expect(try LEDSnapshot(of: led, in: fixture) == before)
  }

  @Test(arguments: [".state", ".lock", ".wait.00000000000000000001"])
  func aFIFOPlantedInTheRuntimeDirectoryNeverHangs(suffix: String) throws {
    let fixture = try fixture()
    let directory = runtimeDirectory(of: fixture)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o700)
    #expect(mkfifo(directory + "/" + led + suffix, 0o600) == 0)
    // Before: each of these blocked forever in open(2) (the test's timeout would end it).
    for command in [
      ["status", "--led", led], ["stop", "--led", led], ["send", "--led", led, "E"],
    ] {
      let outcome = try MorsetorchProcess.run(
        command, ledsDirectory: fixture.ledsPath, timeout: .seconds(20))
      #expect(outcome.exitStatus != nil, "\(command): \(outcome)")
      guard command[0] == "send" else { continue }
      if suffix == ".lock" {
        // Root's to replace: a plain file of its own takes its place, and the send goes on.
        #expect(outcome.exitStatus == 0, "\(outcome)")
        var status = stat()
        #expect(stat(directory + "/" + led + suffix, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFREG)
        try expectTimerRestored(fixture)
      } else {
        // Sent on and restored; a record in the way is reported as unusable and removed.
        #expect(outcome.exitStatus == 0, "\(outcome)")
        if suffix == ".state" {
          #expect(outcome.standardError.contains("ignoring the state record"), "\(outcome)")
        }
        try expectTimerRestored(fixture)
      }
    }
  }

  @Test(
    .enabled(
      if: getuid() == 0 && MorsetorchProcess.canRunUnprivileged, "needs root to run a second user"))
  func aRestoreThatFailsKeepsTheRecordAndEveryNextRunSaysWhatToDo() throws {
    let fixture = try fixture()
    for attribute in ["brightness", "trigger", "delay_on", "delay_off"] {
      try fixture.setPermissions(0o666, of: attribute, of: led)
    }
    let asNobody = { (words: [String]) in
      try MorsetorchProcess.run(words, ledsDirectory: fixture.ledsPath, launch: .unprivileged)
    }
    let sender = try MorsetorchProcess(
      ["send", "--led", led, "--unit", "300", "TT"], ledsDirectory: fixture.ledsPath,
      launch: .unprivileged)
    sender.closeInput()
    let isOn = try eventually { try fixture.read("brightness", of: led) != "0\n" }
    try #require(isOn, "the transmission never switched the LED on")
    // Claimed; now the timer's own settings may no longer be written back.
    try fixture.setPermissions(0o644, of: "delay_on", of: led)
    try fixture.setPermissions(0o644, of: "delay_off", of: led)
    let first = try sender.wait()
    #expect(first.exitStatus == 77, "\(first)")
    #expect(first.standardError.contains("is kept in"), "\(first)")
    // Before: the record was deleted, and with it the only copy of the timer's settings.
    let record = runtimeDirectory(of: fixture) + "/\(led).state"
    #expect(FileManager.default.fileExists(atPath: record))
    // A send is refused before it reserves anything: it names the file it may not write.
    let second = try asNobody(["send", "--led", led, "--unit", "1", "E"])
    #expect(second.exitStatus == 77, "\(second)")
    #expect(second.standardError.contains(fixture.ledPath(of: led) + "/delay_on"), "\(second)")
    let status = try asNobody(["status"])
    #expect(status.standardError.contains("left claimed by"), "\(status)")
    #expect(status.standardError.contains(record), "\(status)")
    try fixture.setPermissions(0o666, of: "delay_on", of: led)
    try fixture.setPermissions(0o666, of: "delay_off", of: led)
    let stop = try asNobody(["stop", "--led", led])
    #expect(stop.exitStatus == 0, "\(stop)")
    #expect(stop.standardError.contains("restored LED"), "\(stop)")
    try expectTimerRestored(fixture)
    #expect(!FileManager.default.fileExists(atPath: record))
  }

  @Test func racingReplacesAlwaysLeaveTheLEDRestored() throws {
    let fixture = try fixture()
    let children = try (1...20).map { _ in
      try start(["send", "--led", led, "--replace", "--unit", "3", "EE"], in: fixture)
    }
    var statuses: [Int32] = []
    for child in children {
      statuses.append(try child.wait(timeout: .seconds(60)).exitStatus ?? -1)
    }
    // Before: some were killed (SIGKILL) while being replaced, or gave up with 75, and the
    // LED was left on with trigger none.
    #expect(statuses.allSatisfy { [0, 143].contains($0) }, "\(statuses)")
    #expect(statuses.contains(0))
    try expectTimerRestored(fixture)
    #expect(leftovers(fixture).isEmpty, "\(leftovers(fixture))")
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

  @Test func differentLEDsRunSideBySide() throws {
    let fixture = try fixture([led, "input3::capslock"])
    let first = try start(["send", "--led", led, "--unit", "30", "TT"], in: fixture)
    let second = try start(
      ["send", "--led", "input3::capslock", "--unit", "30", "TT"], in: fixture)
    #expect(try first.wait().exitStatus == 0)
    #expect(try second.wait().exitStatus == 0)
    try expectTimerRestored(fixture)
    try expectTimerRestored(fixture, "input3::capslock")
  }

  @Test func theNextRunRestoresAnLEDLeftByAKilledTransmitter() throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture)
    first.send(signal: SIGKILL)
    _ = try first.wait()
    // Killed: it could restore nothing.
    #expect(try fixture.read("trigger", of: led) == "none\n")
    // Its record is left (and, if it was killed while rewriting it, a half-written copy).
    #expect(leftovers(fixture).contains("\(led).state"), "\(leftovers(fixture))")
    #expect(
      leftovers(fixture).allSatisfy { $0 == "\(led).state" || $0.hasPrefix(".\(led).state.") })
    let next = try run(["send", "--led", led, "--unit", "1", "E"], in: fixture)
    #expect(next.exitStatus == 0, "\(next)")
    #expect(next.standardError.contains("restored LED \(led)"), "\(next)")
    #expect(next.standardError.contains("pid \(first.processIdentifier)"), "\(next)")
    try expectTimerRestored(fixture)
    #expect(leftovers(fixture).isEmpty)
  }

  @Test(arguments: [["status"], ["stop"]])
  func statusAndStopAlsoRestoreAfterAKill(command: [String]) throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture)
    first.send(signal: SIGKILL)
    _ = try first.wait()
    let outcome = try run(command, in: fixture)
    #expect(outcome.standardError.contains("restored LED \(led)"), "\(outcome)")
    // Before: `status` said it had found nothing (exit 3) right after restoring the LED.
    #expect(outcome.exitStatus == 0, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test(arguments: ["", "{\"led\":", "not json at all", "{\"version\":1}"])
  func aCorruptRecordIsReportedAndIgnored(content: String) throws {
    let fixture = try fixture()
    let directory = runtimeDirectory(of: fixture)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try content.write(toFile: directory + "/\(led).state", atomically: false, encoding: .utf8)
    let outcome = try run(["send", "--led", led, "--unit", "1", "E"], in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.contains("ignoring the state record"), "\(outcome)")
    try expectTimerRestored(fixture)
    #expect(leftovers(fixture).isEmpty)
  }

  @Test func aRecordWithImplausibleValuesIsNotWrittenToTheLED() throws {
    let fixture = try fixture()
    let directory = runtimeDirectory(of: fixture)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    // A trigger attribute that is not one of the timer's: never written anywhere.
    let record = """
      {"led":"\(led)","line":1,"pid":99999,"saved":{"brightness":0,"trigger":"timer",\
      "triggerAttributes":[{"content":"x","name":"../../etc/evil"}]},"sentSymbols":0,\
      "startedAt":0,"text":"x","totalSymbols":1,"version":1}
      """
    try record.write(toFile: directory + "/\(led).state", atomically: false, encoding: .utf8)
    let outcome = try run(["send", "--led", led, "--unit", "1", "E"], in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.contains("ignoring the state record"), "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test func twentySendersAtOnceNeverShareTheLED() throws {
    let fixture = try fixture()
    let brightness = AttributeRecorder("brightness", of: led, in: fixture)
    let children = try (1...20).map { index in
      try start(
        ["send", "--led", led, "--unit", "5", "--brightness", String(index), "SOS"], in: fixture)
    }
    var statuses: [Int32] = []
    var unexpected: [String] = []
    for child in children {
      let outcome = try child.wait(timeout: .seconds(60))
      statuses.append(outcome.exitStatus ?? -1)
      if ![0, 4, 143].contains(outcome.exitStatus ?? -1) { unexpected.append("\(outcome)") }
    }
    // Sent (0), cancelled by a later one (143), or cancelled an earlier one (4).
    #expect(statuses.allSatisfy { [0, 4, 143].contains($0) }, "\(statuses) \(unexpected)")
    // Whoever drove the LED, two never did at once: a brightness is only ever followed by
    // 0, never straight by another process's brightness.
    let seen = brightness.stop()
    for (previous, next) in zip(seen, seen.dropFirst()) where previous != "0\n" {
      #expect(next == "0\n" || next == previous, "\(seen)")
    }
    try expectTimerRestored(fixture)
    #expect(leftovers(fixture).isEmpty, "\(leftovers(fixture))")
    let status = try run(["status"], in: fixture)
    #expect(status.exitStatus == 3, "a lock is still held: \(status)")
  }

  @Test func aSymlinkPlantedAsTheLockIsReplacedNeverFollowed() throws {
    let fixture = try fixture()
    let directory = runtimeDirectory(of: fixture)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let target = fixture.root + "/victim"
    try "precious\n".write(toFile: target, atomically: false, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: directory + "/\(led).lock", withDestinationPath: target)
    let outcome = try run(["send", "--led", led, "--unit", "1", "E"], in: fixture)
    // Its owner's (here this user's) to replace: a plain file takes the link's place.
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
    let replaced = try FileManager.default.attributesOfItem(atPath: directory + "/\(led).lock")
    #expect(replaced[.type] as? FileAttributeType == .typeRegular)
    try expectTimerRestored(fixture)
  }

  @Test func aRuntimeDirectoryEveryoneMayWriteIsRefused() throws {
    let fixture = try fixture()
    let directory = fixture.root + "/open"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o1777)
    let outcome = try MorsetorchProcess.run(
      ["send", "--led", led, "--unit", "1", "E"], ledsDirectory: fixture.ledsPath,
      runtimeDirectory: directory)
    #expect(outcome.exitStatus == 78, "\(outcome)")
    #expect(outcome.standardError.contains("everyone may write"), "\(outcome)")
    #expect(try fixture.read("trigger", of: led) == "none [timer] heartbeat\n")
  }

  @Test func aSymlinkedRuntimeDirectoryIsRefused() throws {
    let fixture = try fixture()
    let real = fixture.root + "/real"
    try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: fixture.root + "/link", withDestinationPath: real)
    let outcome = try MorsetorchProcess.run(
      ["status"], ledsDirectory: fixture.ledsPath, runtimeDirectory: fixture.root + "/link")
    #expect(outcome.exitStatus == 78, "\(outcome)")
  }
}

/// The voluntary and involuntary context switches of every thread of process `pid`.
private func contextSwitches(of pid: Int32) -> Int {
  let tasks = "/proc/\(pid)/task"
  let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
  return threads.reduce(0) { total, thread in
    let status = (try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8)) ?? ""
    return total
      + status.split(separator: "\n").filter {
        $0.hasSuffix("ctxt_switches") || $0.contains("ctxt_switches:")
      }
      .compactMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
      .reduce(0, +)
  }
}

@Suite("several LEDs at once")
struct SeveralLEDsTests {
  @Test func aPatternSendsOnEveryMatchingLEDAndAnyOfThemStopsTheWhole() throws {
    let capsLocks = ["input1::capslock", "input2::capslock"]
    let fixture = try fixture(capsLocks + ["input1::numlock"])
    let numLock = try LEDSnapshot(directory: fixture.devicePath(of: "input1::numlock"))
    let sender = try start(["send", "--led", "*::capslock", "--unit", "300", "TTTTT"], in: fixture)
    let bothOn = try eventually {
      try capsLocks.allSatisfy { try fixture.read("brightness", of: $0) == "255\n" }
    }
    try #require(bothOn, "the matching LEDs did not go on together")
    let status = try run(["status"], in: fixture)
    #expect(status.exitStatus == 0, "\(status)")
    #expect(
      status.standardOutput.contains("input1::capslock (with LED input2::capslock): sending"),
      "\(status)")
    #expect(
      status.standardOutput.contains("input2::capslock (with LED input1::capslock): sending"),
      "\(status)")
    let stop = try run(["stop", "--led", "input2::capslock"], in: fixture)
    #expect(
      stop.standardOutput.contains(
        "stopped the transmission on LEDs input1::capslock, input2::capslock (pid "
          + "\(sender.processIdentifier), \"TTTTT\")"), "\(stop)")
    #expect(try sender.wait().exitStatus == 143)
    for name in capsLocks { try expectTimerRestored(fixture, name) }
    #expect(try LEDSnapshot(directory: fixture.devicePath(of: "input1::numlock")) == numLock)
    #expect(leftovers(fixture).isEmpty, "\(leftovers(fixture))")
  }

  @Test func theEnvironmentMayNameAPatternToo() throws {
    let fixture = try fixture(["a:red:x", "b:red:x", "c:green:x"])
    let green = try LEDSnapshot(directory: fixture.devicePath(of: "c:green:x"))
    let seen = ["a:red:x", "b:red:x"].map { AttributeRecorder("brightness", of: $0, in: fixture) }
    let outcome = try MorsetorchProcess.run(
      ["send", "--unit", "20", "E"], ledsDirectory: fixture.ledsPath,
      environment: ["MORSETORCH_LED": "*:red:*"])
    #expect(outcome.exitStatus == 0, "\(outcome)")
    for recorder in seen { #expect(recorder.stop().contains("255\n")) }
    #expect(try LEDSnapshot(directory: fixture.devicePath(of: "c:green:x")) == green)
    for name in ["a:red:x", "b:red:x"] { try expectTimerRestored(fixture, name) }
  }

  @Test func aPatternThatMatchesNoLEDSaysWhichExist() throws {
    let fixture = try fixture(["a", "b"])
    let outcome = try run(["send", "--led", "a", "--led", "*:green:*", "E"], in: fixture)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(
      outcome.standardError.contains("no LED name matches the pattern \"*:green:*\""),
      "\(outcome)")
    #expect(outcome.standardError.contains("Available: a, b."), "\(outcome)")
    #expect(try fixture.read("trigger", of: "a") == "none [timer] heartbeat\n", "a was touched")
  }

  @Test func aSetLargerThanAStateRecordNamesIsAUsageErrorBeforeAnyLEDIsClaimed() throws {
    let limit = TransmissionRecord.groupLimit
    let fixture = try TemporaryLEDDirectory()
    for number in 0...limit { try fixture.addLED("led\(number)", trigger: "none [timer]") }
    let tooMany = try run(["send", "--led", "led*", "--unit", "1", "E"], in: fixture)
    #expect(tooMany.exitStatus == 64, "\(tooMany)")
    #expect(
      tooMany.standardError.contains(
        "--led names \(limit + 1) LEDs, but one transmission can use at most \(limit)"),
      "\(tooMany)")
    #expect(try fixture.read("trigger", of: "led0") == "none [timer]\n", "led0 was touched")
    let runtime = try? FileManager.default.contentsOfDirectory(
      atPath: runtimeDirectory(of: fixture))
    #expect(runtime?.isEmpty ?? true, "reserved: \(runtime ?? [])")
    // As many as a record may name are sent on, and restored.
    try fixture.removeLED("led\(limit)")
    let atTheLimit = try run(["send", "--led", "led*", "--unit", "1", "E"], in: fixture)
    #expect(atTheLimit.exitStatus == 0, "\(atTheLimit)")
    #expect(try fixture.read("brightness", of: "led\(limit - 1)") == "0\n")
    #expect(leftovers(fixture).isEmpty, "\(leftovers(fixture))")
  }

  @Test(
    .enabled(if: MorsetorchProcess.canRunUnprivileged, "needs setpriv(1) when run as root"),
    arguments: [
      ("a", "b", ["brightness", "trigger"]), ("b", "a", ["brightness", "trigger"]),
      ("a", "b", ["delay_on"]),
    ])
  func aSetWithAnLEDThisUserMayNotWriteIsRefusedBeforeAnyIsReservedOrClaimed(
    writable: String, refused: String, unwritable: [String]
  ) throws {
    let fixture = try fixture(["a", "b"])
    // What send writes (the timer's settings too, to put them back) may be written by the
    // user the run drops to, except `unwritable` of one LED.
    for name in ["a", "b"] {
      for attribute in ["brightness", "trigger", "delay_on", "delay_off"] {
        let mode = unwritable.contains(attribute) && name == refused ? 0o444 : 0o666
        try fixture.setPermissions(mode, of: attribute, of: name)
      }
    }
    let before = try ["a", "b"].map { try LEDSnapshot(directory: fixture.devicePath(of: $0)) }
    let unprivileged = { (words: [String]) in
      try MorsetorchProcess.run(words, ledsDirectory: fixture.ledsPath, launch: .unprivileged)
    }
    let send = try unprivileged(["send", "--led", "a", "--led", "b", "--unit", "1", "E"])
    #expect(send.exitStatus == 77, "\(send)")
    #expect(
      send.standardError.contains(fixture.ledPath(of: refused) + "/" + unwritable[0]),
      "\(send)")
    #expect(send.standardError.contains("udev"), "\(send)")
    let after = try ["a", "b"].map { try LEDSnapshot(directory: fixture.devicePath(of: $0)) }
    #expect(after == before, "an LED was written")
    #expect(!leftovers(fixture).contains { $0.hasSuffix(".state") }, "\(leftovers(fixture))")
    let status = try unprivileged(["status"])
    #expect(status.exitStatus == 3, "\(status)")
    #expect(status.standardError == "morsetorch: nothing is being sent\n", "\(status)")
    let again = try unprivileged(["send", "--led", writable, "--unit", "1", "E"])
    #expect(again.exitStatus == 0, "\(again)")
    #expect(again.standardError.isEmpty, "\(again)")
  }

  @Test func takingSeveralLEDsIsAllOrNothing() throws {
    let fixture = try fixture(["a", "b"])
    let first = try startLongSend(on: "b", in: fixture)
    let untouched = try LEDSnapshot(directory: fixture.devicePath(of: "a"))
    let rerun = try run(["send", "--led", "a", "--led", "b", "--unit", "1", "EEEE"], in: fixture)
    #expect(rerun.exitStatus == 4, "\(rerun)")
    #expect(
      rerun.standardOutput.contains(
        "cancelled the transmission on LED b by pid \(first.processIdentifier) (\"TTTTT\")"),
      "\(rerun)")
    #expect(try first.wait().exitStatus == 143)
    // The free LED was never claimed: not a write, though it was free for the asking.
    #expect(try LEDSnapshot(directory: fixture.devicePath(of: "a")) == untouched)
    try expectTimerRestored(fixture, "b")
  }

  @Test func sendersWaitingForOverlappingSetsAllGetTheirTurn() throws {
    let fixture = try fixture(["a", "b", "c"])
    // About 1.6 s on b and c: time for the others to queue up.
    let first = try startLongSend(on: "b", in: fixture, unit: "60", extra: ["--led", "c"])
    // Each wants two LEDs the others want too; in a circle, were locks taken in any order.
    let sets = [["a", "b"], ["b", "c"], ["c", "a"]]
    var waiters: [MorsetorchProcess] = []
    for set in sets {
      waiters.append(
        try start(
          ["send", "--wait", "--led", set[0], "--led", set[1], "--unit", "2", "EE"], in: fixture))
    }
    let queued = eventually { leftovers(fixture).filter { $0.contains(".wait.") }.count >= 2 }
    #expect(queued, "\(leftovers(fixture))")
    #expect(try first.wait().exitStatus == 0)
    for waiter in waiters {
      let outcome = try waiter.wait(timeout: .seconds(30))
      #expect(outcome.exitStatus == 0, "\(outcome)")
    }
    for name in ["a", "b", "c"] { try expectTimerRestored(fixture, name) }
    #expect(leftovers(fixture).isEmpty, "\(leftovers(fixture))")
  }

  @Test(arguments: [["send", "--led", "a", "--unit", "1", "E"], ["stop", "--led", "a"]])
  func aRunOnOneLEDOfAKilledSetRestoresTheWholeSet(command: [String]) throws {
    let fixture = try fixture(["a", "b", "c"])
    let first = try startLongSend(on: "a", in: fixture, extra: ["--led", "b"])
    first.send(signal: SIGKILL)
    _ = try first.wait()
    #expect(try fixture.read("trigger", of: "b") == "none\n", "killed: nothing restored")
    let outcome = try run(command, in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    for name in ["a", "b"] {
      #expect(outcome.standardError.contains("restored LED \(name), left claimed"), "\(outcome)")
      try expectTimerRestored(fixture, name)
    }
    #expect(try fixture.read("trigger", of: "c") == "none [timer] heartbeat\n", "c untouched")
    #expect(leftovers(fixture).isEmpty, "\(leftovers(fixture))")
  }

  @Test func aSenderHoldingOneLEDWhileWaitingForTheNextIsAskedToLetGo() throws {
    let fixture = try fixture(["a", "b"])
    let first = try startLongSend(on: "b", in: fixture)
    let waiter = try start(["send", "--wait", "--led", "a", "--led", "b", "E"], in: fixture)
    let queued = eventually { leftovers(fixture).contains { $0.hasPrefix("b.wait.") } }
    try #require(queued, "\(leftovers(fixture))")
    let stopper = try start(["stop", "--led", "a"], in: fixture)
    let stop = try stopper.wait()
    #expect(stop.exitStatus == 0, "\(stop)")
    let outcome = try waiter.wait()
    #expect(outcome.exitStatus == 143, "\(outcome)")
    // Asked through the socket of the LED it held, not signalled (which fails across users).
    #expect(
      outcome.standardError.contains(
        "stopped by pid \(stopper.processIdentifier) (`morsetorch stop` or a rerun); "
          + "waiting for LEDs a, b; nothing was sent"), "\(outcome)")
    let runtime = try RuntimeDirectory(path: runtimeDirectory(of: fixture))
    #expect(try Transmissions.holder(of: .led("a"), in: runtime) == nil)
    first.send(signal: SIGTERM)
    #expect(try first.wait().exitStatus == 143)
    try expectTimerRestored(fixture, "b")
  }

  @Test func oneLEDVanishingStopsAllAndTheOthersAreRestored() throws {
    let fixture = try fixture(["green:status", "red:status"])
    let sender = try start(
      ["send", "--led", "*:status", "--unit", "300", "TTTTT"], in: fixture)
    let isOn = try eventually { try fixture.read("brightness", of: "red:status") == "255\n" }
    try #require(isOn)
    try fixture.removeLED("red:status")
    let outcome = try sender.wait()
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains("red:status"), "\(outcome)")
    try expectTimerRestored(fixture, "green:status")
  }
}
