import Foundation
import Instants
import LEDDriver
import LinuxSystem
import MorseCore
import MorsePlayer
import MorseTestSupport
import Testing

@testable import TransmitterControl

@Suite("TransmitterSession")
struct TransmitterSessionTests {
  private func setUp() throws -> (TemporaryLEDDirectory, LED, RuntimeDirectory) {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(
      "white:flash", brightness: 0, trigger: "none [timer] heartbeat",
      attributes: ["delay_on": "100\n", "delay_off": "900\n"])
    let led = try LEDClassDirectory(path: fixture.ledsPath).led(named: "white:flash")
    return (fixture, led, try RuntimeDirectory(path: fixture.root + "/run"))
  }

  private func reserve(_ led: LED, in runtime: RuntimeDirectory) throws
    -> TransmitterSession
  {
    let reservation = try TransmitterSession.reserve(
      LEDDevice(led: led), in: runtime, policy: .toggle, cancellation: Cancellation())
    guard case .reserved(let session) = reservation else {
      throw TestFailure("not reserved: \(reservation)")
    }
    return session
  }

  @Test func aSessionClaimsTransmitsRestoresAndLeavesNoRecord() throws {
    let (fixture, led, runtime) = try setUp()
    let session = try reserve(led, in: runtime)
    #expect(session.notes.isEmpty)
    let claimed = try session.claim(text: "E", totalSymbols: 1)
    // While transmitting: claimed, and recorded for `status` and for a crash.
    #expect(try fixture.read("trigger", of: "white:flash") == "none\n")
    let seenRecord = Transmissions.record(of: .led("white:flash"), in: runtime)
    try claimed.torch.set(true)
    try claimed.torch.set(false)
    let outcome = try claimed.finish(.success(.completed))
    #expect(outcome == .completed)
    guard case .record(let record) = seenRecord else {
      Issue.record("no record while transmitting: \(seenRecord)")
      return
    }
    #expect(record.pid == getpid())
    #expect(record.saved.value(of: "trigger") == "timer")
    #expect(try fixture.read("trigger", of: "white:flash") == "timer\n")
    #expect(try fixture.read("delay_on", of: "white:flash") == "100\n")
    #expect(Transmissions.record(of: .led("white:flash"), in: runtime) == .none)
    #expect(try Transmissions.holder(of: .led("white:flash"), in: runtime) == nil)
  }

  @Test func theRecordKeeperWritesProgressForStatus() throws {
    let (fixture, led, runtime) = try setUp()
    defer { withExtendedLifetime(fixture) {} }
    let claimed = try reserve(led, in: runtime).claim(text: "SOS", totalSymbols: 3)
    let step = try #require(
      MorseSteps(try MorseMessage("S"), timing: .standard).first { _ in true })
    claimed.recordKeepers[0].transmission(
      didBegin: Transmitter.Progress(step: step, start: .origin, line: 2, symbolsBegun: 2))
    // The writer thread writes within its interval; look for up to 10 s.
    let clock = SystemStepClock()
    let deadline = clock.now() + .seconds(10)
    var found: TransmissionRecord?
    while clock.now() < deadline {
      if case .record(let record) = Transmissions.record(of: .led("white:flash"), in: runtime), record.sentSymbols == 2
      {
        found = record
        break
      }
      usleep(5000)
    }
    _ = try claimed.finish(.success(.completed))
    #expect(found?.line == 2)
    #expect(found?.text == "SOS")
  }

  @Test func aLeftoverRecordIsRestoredBeforeAnythingElse() throws {
    let (fixture, led, runtime) = try setUp()
    // What a killed transmitter leaves: the LED claimed and on, and its record.
    let files = RuntimeFiles(name: "white:flash", directory: runtime)
    try files.writeRecord(
      TransmissionRecord(
        pid: 99_999, device: .led("white:flash"), text: "SOS", totalSymbols: 3,
        saved: SavedLEDState(of: led).fields))
    try fixture.write("none\n", to: "trigger", of: "white:flash")
    try fixture.write("255\n", to: "brightness", of: "white:flash")
    try fixture.write("500\n", to: "delay_on", of: "white:flash")
    let note = try TransmitterSession.recoverLeftover(of: LEDDevice(led: led), in: runtime)
    #expect(note == .leftoverRestored(
        device: .led("white:flash"), pid: 99_999, writerID: CurrentProcess.effectiveUserID))
    #expect(try fixture.read("trigger", of: "white:flash") == "timer\n")
    #expect(try fixture.read("delay_on", of: "white:flash") == "100\n")
    #expect(try fixture.read("brightness", of: "white:flash") == "0\n")
    #expect(try TransmitterSession.recoverLeftover(of: LEDDevice(led: led), in: runtime) == nil)
  }

  @Test func aReservationRestoresALeftoverAndSaysSo() throws {
    let (fixture, led, runtime) = try setUp()
    try RuntimeFiles(name: "white:flash", directory: runtime).writeRecord(
      TransmissionRecord(
        pid: 4242, device: .led("white:flash"), text: "SOS", totalSymbols: 3,
        saved: SavedLEDState(of: led).fields))
    try fixture.write("none\n", to: "trigger", of: "white:flash")
    let session = try reserve(led, in: runtime)
    #expect(session.notes == [
        .leftoverRestored(
          device: .led("white:flash"), pid: 4242, writerID: CurrentProcess.effectiveUserID)
      ])
    #expect(try fixture.read("trigger", of: "white:flash") == "timer\n")
  }

  @Test func aCorruptRecordIsIgnoredWithANote() throws {
    let (fixture, led, runtime) = try setUp()
    defer { withExtendedLifetime(fixture) {} }
    try "{garbage".write(
      toFile: runtime.path + "/white:flash.state", atomically: false, encoding: .utf8)
    let session = try reserve(led, in: runtime)
    guard case .corruptRecordIgnored(let path, _) = session.notes.first else {
      Issue.record("no note: \(session.notes)")
      return
    }
    #expect(path.hasSuffix("white:flash.state"))
  }

  @Test func aTransmissionErrorAndARestoreErrorAreBothReported() throws {
    let (fixture, led, runtime) = try setUp()
    let claimed = try reserve(led, in: runtime).claim(text: "E", totalSymbols: 1)
    struct Broken: Error {}
    try fixture.removeAttribute("delay_on", of: "white:flash")
    try fixture.removeAttribute("trigger", of: "white:flash")
    #expect {
      _ = try claimed.finish(.failure(Broken()))
    } throws: { error in
      guard let failure = error as? RestoreFailure else { return false }
      return failure.error is Broken && failure.restoreError is LEDError
    }
  }

  @Test func aFailedClaimLeavesNoRecordAndFreesTheLED() throws {
    let (fixture, led, runtime) = try setUp()
    try fixture.write("x\n", to: "max_brightness", of: "white:flash")
    let session = try reserve(led, in: runtime)
    #expect(throws: LEDError.self) { _ = try session.claim(text: "E", totalSymbols: 1) }
    #expect(Transmissions.record(of: .led("white:flash"), in: runtime) == .none)
  }
}

@Suite("TransmitterSession on several devices")
struct SeveralDevicesSessionTests {
  private func setUp(_ names: [String]) throws -> (TemporaryLEDDirectory, [LED], RuntimeDirectory) {
    let fixture = try TemporaryLEDDirectory()
    for name in names {
      try fixture.addLED(
        name, brightness: 0, trigger: "none [timer] heartbeat",
        attributes: ["delay_on": "100\n", "delay_off": "900\n"])
    }
    let directory = LEDClassDirectory(path: fixture.ledsPath)
    let leds = try names.map { try directory.led(named: $0) }
    return (fixture, leds, try RuntimeDirectory(path: fixture.root + "/run"))
  }

  private func reserve(_ leds: [LED], in runtime: RuntimeDirectory) throws
    -> TransmitterSession
  {
    let reservation = try TransmitterSession.reserve(
      leds.map { LEDDevice(led: $0) }, in: runtime, policy: .toggle, cancellation: Cancellation())
    guard case .reserved(let session) = reservation else {
      throw TestFailure("not reserved: \(reservation)")
    }
    return session
  }

  private func record(_ name: String, in runtime: RuntimeDirectory)
    -> RecordContent
  {
    Transmissions.record(of: .led(name), in: runtime)
  }

  @Test func locksAreTakenInOneOrderWhateverOrderTheDevicesCameIn() throws {
    let (fixture, leds, _) = try setUp(["c", "a", "b"])
    defer { withExtendedLifetime(fixture) {} }
    let devices = (leds + leds).map { LEDDevice(led: $0) }
    #expect(TransmitterSession.inLockOrder(devices).map(\.id.lockName) == ["a", "b", "c"])
  }

  @Test func severalDevicesAreClaimedSwitchedAndRestoredTogether() throws {
    let (fixture, leds, runtime) = try setUp(["b", "a"])
    let claimed = try reserve(leds, in: runtime).claim(text: "E", totalSymbols: 1)
    for name in ["a", "b"] {
      #expect(try fixture.read("trigger", of: name) == "none\n")
      guard case .record(let found) = record(name, in: runtime) else {
        Issue.record("no record of \(name)")
        continue
      }
      // Either record leads to the whole transmission: `status` and `stop` on any LED.
      #expect(found.group == [.led("a"), .led("b")])
      #expect(found.saved.value(of: "trigger") == "timer")
    }
    try claimed.torch.set(true)
    #expect(try fixture.read("brightness", of: "a") == "255\n")
    #expect(try fixture.read("brightness", of: "b") == "255\n")
    #expect(try claimed.finish(.success(.completed)) == .completed)
    for name in ["a", "b"] {
      #expect(try fixture.read("trigger", of: name) == "timer\n")
      #expect(try fixture.read("brightness", of: name) == "0\n")
      #expect(record(name, in: runtime) == .none)
      #expect(try Transmissions.holder(of: .led(name), in: runtime) == nil)
    }
  }

  @Test func aFailedClaimOfOneDeviceLeavesEveryDeviceAsItWas() throws {
    let (fixture, leds, runtime) = try setUp(["a", "b"])
    try fixture.write("x\n", to: "max_brightness", of: "b")
    let session = try reserve(leds, in: runtime)
    #expect {
      _ = try session.claim(text: "E", totalSymbols: 1)
    } throws: { error in
      "\(error)".contains("/b/max_brightness")
    }
    #expect(try fixture.read("trigger", of: "a") == "timer\n", "a was claimed first: put back")
    #expect(try fixture.read("delay_on", of: "a") == "100\n")
    #expect(try fixture.read("trigger", of: "b") == "none [timer] heartbeat\n", "b untouched")
    #expect(record("a", in: runtime) == .none)
    #expect(record("b", in: runtime) == .none)
  }

  @Test func aDeviceThatVanishedKeepsItsRecordAndTheOthersAreRestored() throws {
    let (fixture, leds, runtime) = try setUp(["a", "b", "c"])
    let claimed = try reserve(leds, in: runtime).claim(text: "E", totalSymbols: 1)
    try claimed.torch.set(true)
    try fixture.removeLED("b")
    #expect {
      _ = try claimed.finish(.failure(LEDError.vanished(path: "b", errno: .noSuchFile)))
    } throws: { error in
      guard let failure = error as? RestoreFailure else { return false }
      return failure.failed.map(\.device) == [.led("b")] && failure.error is LEDError
    }
    for name in ["a", "c"] {
      #expect(try fixture.read("trigger", of: name) == "timer\n")
      #expect(try fixture.read("brightness", of: name) == "0\n", "\(name) left on")
      #expect(record(name, in: runtime) == .none)
    }
    guard case .record = record("b", in: runtime) else {
      Issue.record("b's record was not kept for a later restore")
      return
    }
  }
}

/// A test that cannot go on.
struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
