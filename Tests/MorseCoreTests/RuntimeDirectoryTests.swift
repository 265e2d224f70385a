import Foundation
import MorseTestSupport
import Testing

@testable import MorseCore

@Suite("RuntimeDirectory")
struct RuntimeDirectoryTests {
  @Test func missingDirectoryIsCreatedPrivate() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/run"
    let directory = try RuntimeDirectory(path: path)
    #expect(directory.path == path)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o700)
  }

  @Test func environmentVariableWins() throws {
    let fixture = try TemporaryLEDDirectory()
    let directory = try RuntimeDirectory(environment: [
      "MORSETORCH_RUNTIME_DIR": fixture.root + "/mine", "XDG_RUNTIME_DIR": "/nonexistent",
    ])
    #expect(directory.path == fixture.root + "/mine")
  }

  @Test func aSymlinkIsRefused() throws {
    let fixture = try TemporaryLEDDirectory()
    try FileManager.default.createDirectory(
      atPath: fixture.root + "/real", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: fixture.root + "/link", withDestinationPath: fixture.root + "/real")
    #expect {
      _ = try RuntimeDirectory(path: fixture.root + "/link")
    } throws: { error in
      guard case .unsafeDirectory(_, let reason) = error as? ReservationError else { return false }
      return reason.contains("symlink")
    }
  }

  @Test func aDirectoryEveryoneMayWriteIsRefusedEvenWithTheStickyBit() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/open"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    chmod(path, 0o1777)
    #expect(
      throws: ReservationError.unsafeDirectory(path: path, reason: "everyone may write in it")
    ) {
      _ = try RuntimeDirectory(path: path)
    }
  }

  @Test(.enabled(if: getuid() == 0, "needs root to give a directory away"))
  func aDirectoryOfAnotherUserIsRefused() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/theirs"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    chown(path, 65_534, 65_534)
    #expect {
      _ = try RuntimeDirectory(path: path)
    } throws: { error in
      guard case .unsafeDirectory(_, let reason) = error as? ReservationError else { return false }
      return reason.contains("another user")
    }
  }

  @Test func aFileWhereTheDirectoryShouldBeIsRefused() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/file"
    try "x".write(toFile: path, atomically: false, encoding: .utf8)
    #expect(throws: ReservationError.self) { _ = try RuntimeDirectory(path: path) }
  }

  @Test func errorsSayWhatToDo() {
    let message = ReservationError.unsafeDirectory(path: "/x", reason: "everyone may write in it")
      .description
    #expect(message.contains("/x"))
    #expect(message.contains("MORSETORCH_RUNTIME_DIR"))
    #expect(ReservationError.noDirectory.description.contains("XDG_RUNTIME_DIR"))
  }
}

@Suite("TransmissionRecord")
struct TransmissionRecordTests {
  private let saved = SavedLEDState(
    trigger: "timer", brightness: 0,
    triggerAttributes: [
      .init(name: "delay_on", content: "100"), .init(name: "delay_off", content: "900"),
    ])

  @Test func roundTripsThroughItsFileFormat() throws {
    let record = TransmissionRecord(
      pid: 42, led: "white:flash", text: "SOS", totalSymbols: 3, saved: saved, startedAt: 1000)
    let decoded = TransmissionRecord.decode(try record.encoded(), for: "white:flash")
    #expect(try decoded.get() == record)
  }

  @Test func longTextIsCut() {
    let record = TransmissionRecord(
      pid: 1, led: "a", text: String(repeating: "E", count: 1000), totalSymbols: nil, saved: saved)
    #expect(record.text.count == TransmissionRecord.textLimit + 1)
    #expect(record.text.hasSuffix("…"))
    #expect(record.isPlausible(for: "a"))
  }

  @Test(arguments: [
    "", "{", "null", "[]", "{\"version\":1}", String(repeating: "x", count: 100),
  ])
  func garbageIsRejected(text: String) {
    #expect(throws: RecordProblem.self) {
      try TransmissionRecord.decode(Array(text.utf8), for: "a").get()
    }
  }

  @Test func aRecordForAnotherLEDOrWithBadValuesIsImplausible() throws {
    let good = TransmissionRecord(
      pid: 42, led: "a", text: "x", totalSymbols: 1, saved: saved, startedAt: 0)
    #expect(good.isPlausible(for: "a"))
    #expect(!good.isPlausible(for: "b"))
    var badPid = good
    badPid.pid = 0
    #expect(!badPid.isPlausible(for: "a"))
    var badTrigger = good
    badTrigger.saved = SavedLEDState(trigger: "timer\nnone", brightness: 0, triggerAttributes: [])
    #expect(!badTrigger.isPlausible(for: "a"))
    var foreignAttribute = good
    foreignAttribute.saved = SavedLEDState(
      trigger: "timer", brightness: 0, triggerAttributes: [.init(name: "../x", content: "1")])
    #expect(!foreignAttribute.isPlausible(for: "a"))
    var attributeOfAnotherTrigger = good
    attributeOfAnotherTrigger.saved = SavedLEDState(
      trigger: "heartbeat", brightness: 0,
      triggerAttributes: [.init(name: "delay_on", content: "1")])
    #expect(!attributeOfAnotherTrigger.isPlausible(for: "a"))
    var negative = good
    negative.saved = SavedLEDState(trigger: "none", brightness: -1, triggerAttributes: [])
    #expect(!negative.isPlausible(for: "a"))
  }

  @Test func summarySaysWhatWhoAndHowFar() {
    var record = TransmissionRecord(
      pid: 42, led: "white:flash", text: "SOS", totalSymbols: 3, saved: saved, startedAt: 1000)
    record.sentSymbols = 2
    #expect(
      record.summary(now: 1065, waiting: [7, 8])
        == "white:flash: sending \"SOS\" (pid 42): 2 of 3 characters begun, for 1 min 5 s; "
        + "2 waiting (pid 7, 8)")
    var streamed = record
    streamed.totalSymbols = nil
    streamed.line = 4
    #expect(streamed.summary(now: 1003).contains("2 characters, line 4 begun, for 3 s"))
  }
}

@Suite("LEDSession")
struct LEDSessionTests {
  private func setUp() throws -> (TemporaryLEDDirectory, LED, RuntimeDirectory) {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(
      "white:flash", brightness: 0, trigger: "none [timer] heartbeat",
      attributes: ["delay_on": "100\n", "delay_off": "900\n"])
    let led = try LEDClassDirectory(path: fixture.ledsPath).led(named: "white:flash")
    return (fixture, led, try RuntimeDirectory(path: fixture.root + "/run"))
  }

  @Test func aSessionClaimsTransmitsRestoresAndLeavesNoRecord() throws {
    let (fixture, led, runtime) = try setUp()
    var notes: [String] = []
    let session = LEDSession(
      led: led, runtime: runtime, brightness: .maximum, description: ("E", 1),
      note: { notes.append($0) })
    var seenRecord: RecordContent?
    let outcome = try session.run(policy: .toggle, cancellation: Cancellation()) { torch, _ in
      // While transmitting: claimed, and recorded for `status` and for a crash.
      #expect(try fixture.read("trigger", of: "white:flash") == "none\n")
      seenRecord = LEDRuntime.record(of: "white:flash", in: runtime)
      try torch.set(true)
      try torch.set(false)
      return .completed
    }
    #expect(outcome == .transmitted(.completed))
    guard case .record(let record) = seenRecord else {
      Issue.record("no record while transmitting: \(String(describing: seenRecord))")
      return
    }
    #expect(record.pid == getpid())
    #expect(record.saved.trigger == "timer")
    #expect(try fixture.read("trigger", of: "white:flash") == "timer\n")
    #expect(try fixture.read("delay_on", of: "white:flash") == "100\n")
    #expect(LEDRuntime.record(of: "white:flash", in: runtime) == .none)
    #expect(notes.isEmpty)
  }

  @Test func aLeftoverRecordIsRestoredBeforeAnythingElse() throws {
    let (fixture, led, runtime) = try setUp()
    // What a killed transmitter leaves: the LED claimed and on, and its record.
    let files = LEDRuntimeFiles(led: "white:flash", directory: runtime)
    try files.writeRecord(
      TransmissionRecord(
        pid: 99_999, led: "white:flash", text: "SOS", totalSymbols: 3,
        saved: SavedLEDState(of: led)))
    try fixture.write("none\n", to: "trigger", of: "white:flash")
    try fixture.write("255\n", to: "brightness", of: "white:flash")
    try fixture.write("500\n", to: "delay_on", of: "white:flash")
    var notes: [String] = []
    let restored = try LEDSession.recoverLeftover(of: led, in: runtime) { notes.append($0) }
    #expect(restored)
    #expect(try fixture.read("trigger", of: "white:flash") == "timer\n")
    #expect(try fixture.read("delay_on", of: "white:flash") == "100\n")
    #expect(try fixture.read("brightness", of: "white:flash") == "0\n")
    #expect(notes.count == 1 && notes[0].contains("pid 99999"))
    #expect(try LEDSession.recoverLeftover(of: led, in: runtime) { notes.append($0) } == false)
  }

  @Test func aTransmissionErrorAndARestoreErrorAreBothReported() throws {
    let (fixture, led, runtime) = try setUp()
    let session = LEDSession(
      led: led, runtime: runtime, brightness: .maximum, description: ("E", 1), note: { _ in })
    struct Broken: Error {}
    #expect {
      _ = try session.run(policy: .toggle, cancellation: Cancellation()) { _, _ in
        try fixture.removeAttribute("delay_on", of: "white:flash")
        try fixture.removeAttribute("trigger", of: "white:flash")
        throw Broken()
      }
    } throws: { error in
      guard let failure = error as? RestoreFailure else { return false }
      return failure.error is Broken && "\(failure)".contains("also, restoring the LED failed")
    }
  }
}
