import Foundation
import GPIODriver
import LEDDriver
import LinuxSystem
import MorseCore
import DeviceContract
import MorseTestSupport
import Testing

@testable import TransmitterControl

@Suite("TransmissionRecord and its file format")
struct TransmissionRecordTests {
  private let saved = SavedLEDState(
    trigger: "timer", brightness: 0,
    triggerAttributes: [
      .init(name: "delay_on", content: "100"), .init(name: "delay_off", content: "900"),
    ]
  ).fields

  private func decode(_ text: String, for device: DeviceID = .led("a")) throws
    -> TransmissionRecord
  {
    try TransmissionRecord.decode(Array(text.utf8), for: device, writerID: nil).get()
  }

  @Test func roundTripsThroughItsFileFormat() throws {
    var record = TransmissionRecord(
      pid: 42, device: .led("white:flash"), text: "S\\O\nS\u{1b}[2J", totalSymbols: 3,
      saved: saved, startedAt: 1000.25)
    record.rounds = 0
    record.round = 3
    record.waitingForLine = 2
    record.group = [.gpioLine(chip: "gpiochip0", offset: 17), .led("white:flash")]
    let decoded = TransmissionRecord.decode(
      record.encoded(), for: .led("white:flash"), writerID: nil)
    #expect(try decoded.get() == record)
  }

  @Test func itIsPlainLinesThatCatShows() {
    let record = TransmissionRecord(
      pid: 42, device: .led("input3::capslock"), text: "SOS\n", totalSymbols: 3, saved: saved,
      startedAt: 1000)
    #expect(
      String(decoding: record.encoded(), as: UTF8.self) == """
        morsetorch state record 2
        pid 42
        device input3::capslock
        started 1000.0
        text SOS\\n
        total 3
        sent 0
        line 1
        saved trigger timer
        saved brightness 0
        saved setting delay_on 100
        saved setting delay_off 900

        """)
  }

  @Test func longTextIsCut() {
    let record = TransmissionRecord(
      pid: 1, device: .led("a"), text: String(repeating: "E", count: 1000), totalSymbols: nil,
      saved: saved)
    #expect(record.text.count == TransmissionRecord.textLimit + 1)
    #expect(record.text.hasSuffix("…"))
    #expect(record.isPlausible(for: .led("a")))
  }

  private static let valid = """
    morsetorch state record 2
    pid 42
    device a
    started 0
    text x
    sent 0
    line 1
    saved brightness 0

    """

  @Test func theValidRecordTheseTestsBreakIsValid() throws {
    #expect(try decode(Self.valid).pid == 42)
  }

  @Test(arguments: [
    ("", "empty"), ("{\"version\":1,\"led\":\"a\"}\n", "an older morsetorch's JSON"),
    (valid.replacing("\n", with: "\r\n"), "CR LF"), (String(valid.dropLast()), "no final newline"),
    (valid.replacing("record 2", with: "record 3"), "another version"),
    (valid.replacing("pid 42", with: "pid +42"), "a signed number"),
    (valid.replacing("pid 42", with: "pid 42\npid 43"), "a repeated key"),
    (valid.replacing("pid 42", with: "pid 0"), "pid 0"),
    (valid.replacing("pid 42", with: "pid 99999999999"), "a pid out of range"),
    (valid.replacing("sent 0", with: "sent 0\nextra 1"), "an unknown key"),
    (valid.replacing("line 1\n", with: ""), "a missing key"),
    (valid.replacing("device a", with: "device b"), "another device"),
    (valid.replacing("device a", with: "device ../a"), "a path"),
    (valid.replacing("text x", with: "text x\\q"), "a bad escape"),
    (valid.replacing("text x", with: "text x\\x41"), "an escape of a printable character"),
    (valid.replacing("started 0", with: "started nan"), "a time that is no number"),
    (valid.replacing("started 0", with: "started 1e9"), "a time in another notation"),
    (valid.replacing("saved brightness 0", with: "saved bright/../ness 0\nsaved x"), "bad fields"),
    (valid.replacing("sent 0", with: "sent 0\nmember a"), "a group of one"),
  ])
  func anythingMorsetorchDoesNotWriteIsRefused(text: String, what: String) {
    #expect(throws: RecordProblem.self, "\(what)") { try decode(text) }
  }

  @Test func aJSONRecordOfAnOlderVersionIsRefusedSayingWhatToDo() {
    let result = TransmissionRecord.decode(
      Array("{\"version\":1}\n".utf8), for: .led("a"), writerID: nil)
    guard case .failure(let problem) = result else {
      Issue.record("read")
      return
    }
    #expect(problem.reason.contains("older morsetorch"))
    #expect(problem.reason.contains("remove the record"))
  }

  @Test func aRecordForAnotherDeviceOrWithBadValuesIsImplausible() throws {
    let good = TransmissionRecord(
      pid: 42, device: .led("a"), text: "x", totalSymbols: 1, saved: saved, startedAt: 0)
    #expect(good.isPlausible(for: .led("a")))
    #expect(!good.isPlausible(for: .led("b")))
    var badPid = good
    badPid.pid = 0
    #expect(!badPid.isPlausible(for: .led("a")))
    var waitingForNothing = good
    waitingForNothing.waitingForLine = 0
    #expect(!waitingForNothing.isPlausible(for: .led("a")))
  }

  @Test func anLEDsSavedStateIsCheckedByItsDriver() throws {
    let check = { (state: SavedLEDState) in SavedLEDState(fields: state.fields) != nil }
    #expect(check(SavedLEDState(fields: saved)!))
    #expect(!check(SavedLEDState(trigger: "timer\nnone", brightness: 0, triggerAttributes: [])))
    #expect(
      !check(
        SavedLEDState(
          trigger: "timer", brightness: 0, triggerAttributes: [.init(name: "../x", content: "1")])))
    // A trigger's files only while a trigger is active, and never the LED class's own files.
    #expect(
      !check(
        SavedLEDState(
          trigger: "none", brightness: 0,
          triggerAttributes: [.init(name: "delay_on", content: "1")])))
    #expect(
      !check(
        SavedLEDState(
          trigger: "timer", brightness: 0,
          triggerAttributes: [.init(name: "brightness", content: "1")])))
    #expect(SavedLEDState(fields: SavedFields([.init("brightness", "-1")])) == nil)
    #expect(SavedLEDState(fields: SavedFields([.init("brightness", "+1")])) == nil)
    #expect(
      SavedLEDState(fields: SavedFields([.init("brightness", "0"), .init("chip", "/dev")])) == nil)
  }

  @Test func aGPIOLinesSavedStateIsCheckedByItsDriver() {
    let line = SavedGPIOLine(chip: "/dev/gpiochip0", offset: 17, isActiveLow: true)
    #expect(SavedGPIOLine(fields: line.fields) == line)
    #expect(SavedGPIOLine(fields: SavedFields([.init("chip", "/dev/gpiochip0")])) == nil)
    var fields = line.fields
    fields.fields[1] = .init("offset", "-1")
    #expect(SavedGPIOLine(fields: fields) == nil)
  }
}
