import Foundation
import Glibc
import MorseTestSupport
import Testing
import TransmitterControl

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
      ["send", "--unit", "100", "E"], ledsDirectory: fixture.ledsPath,
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
    // The advice fits the machine: where the package made no group yet, the rule and the
    // group to make; joining the group, either way.
    #expect(send.standardError.contains("usermod -aG leds"), "\(send)")
    if !MorsetorchProcess.machineHasLEDGroup {
      #expect(send.standardError.contains("udev"), "\(send)")
    }
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
