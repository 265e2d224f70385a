import Foundation
import LEDDriver
import LinuxSystem
import MorseCore
import MorsePlayer
import MorseTestSupport
import Testing

@testable import TransmitterControl

@Suite("TransmissionRecord")
struct TransmissionRecordTests {
  private let saved = SavedLEDState(
    trigger: "timer", brightness: 0,
    triggerAttributes: [
      .init(name: "delay_on", content: "100"), .init(name: "delay_off", content: "900"),
    ])

  @Test func roundTripsThroughItsFileFormat() throws {
    let record = TransmissionRecord(
      pid: 42, device: "white:flash", text: "SOS", totalSymbols: 3, saved: saved, startedAt: 1000)
    let decoded = TransmissionRecord.decode(
      try record.encoded(), for: "white:flash", writerID: nil, isPlausible: LEDDevice.isPlausible)
    #expect(try decoded.get() == record)
  }

  @Test func longTextIsCut() {
    let record = TransmissionRecord(
      pid: 1, device: "a", text: String(repeating: "E", count: 1000), totalSymbols: nil,
      saved: saved)
    #expect(record.text.count == TransmissionRecord<SavedLEDState>.textLimit + 1)
    #expect(record.text.hasSuffix("…"))
    #expect(record.isPlausible(for: "a", isPlausible: LEDDevice.isPlausible))
  }

  @Test(arguments: [
    "", "{", "null", "[]", "{\"version\":1}", String(repeating: "x", count: 100),
  ])
  func garbageIsRejected(text: String) {
    #expect(throws: RecordProblem.self) {
      try TransmissionRecord<SavedLEDState>.decode(
        Array(text.utf8), for: "a", writerID: nil, isPlausible: LEDDevice.isPlausible
      ).get()
    }
  }

  @Test func aRecordForAnotherLEDOrWithBadValuesIsImplausible() throws {
    let good = TransmissionRecord(
      pid: 42, device: "a", text: "x", totalSymbols: 1, saved: saved, startedAt: 0)
    #expect(good.isPlausible(for: "a", isPlausible: LEDDevice.isPlausible))
    #expect(!good.isPlausible(for: "b", isPlausible: LEDDevice.isPlausible))
    var badPid = good
    badPid.pid = 0
    #expect(!badPid.isPlausible(for: "a", isPlausible: LEDDevice.isPlausible))
    var badTrigger = good
    badTrigger.saved = SavedLEDState(trigger: "timer\nnone", brightness: 0, triggerAttributes: [])
    #expect(!badTrigger.isPlausible(for: "a", isPlausible: LEDDevice.isPlausible))
    var foreignAttribute = good
    foreignAttribute.saved = SavedLEDState(
      trigger: "timer", brightness: 0, triggerAttributes: [.init(name: "../x", content: "1")])
    #expect(!foreignAttribute.isPlausible(for: "a", isPlausible: LEDDevice.isPlausible))
    // Any trigger's own files may be restored now (netdev, usbport, ones to come), but only
    // while a trigger is active, and never the LED class's own files.
    var settingsWithoutTrigger = good
    settingsWithoutTrigger.saved = SavedLEDState(
      trigger: "none", brightness: 0, triggerAttributes: [.init(name: "delay_on", content: "1")])
    #expect(!settingsWithoutTrigger.isPlausible(for: "a", isPlausible: LEDDevice.isPlausible))
    var classFile = good
    classFile.saved = SavedLEDState(
      trigger: "timer", brightness: 0, triggerAttributes: [.init(name: "brightness", content: "1")])
    #expect(!classFile.isPlausible(for: "a", isPlausible: LEDDevice.isPlausible))
    var netdev = good
    netdev.saved = SavedLEDState(
      trigger: "netdev", brightness: 0,
      triggerAttributes: [
        .init(name: "device_name", content: "lo"), .init(name: "rx", content: "1"),
      ])
    #expect(netdev.isPlausible(for: "a", isPlausible: LEDDevice.isPlausible))
    var negative = good
    negative.saved = SavedLEDState(trigger: "none", brightness: -1, triggerAttributes: [])
    #expect(!negative.isPlausible(for: "a", isPlausible: LEDDevice.isPlausible))
  }

  @Test func aRecordWaitingForInputRoundTripsAndOneWithoutTheFieldStillReads() throws {
    var record = TransmissionRecord(
      pid: 42, device: "a", text: "(standard input)", totalSymbols: nil, saved: saved,
      startedAt: 0)
    let older = try record.encoded()
    // Not waiting: the field is left out, so the file reads exactly as before it existed.
    #expect(!String(decoding: older, as: UTF8.self).contains("waitingForLine"))
    #expect(
      try TransmissionRecord.decode(older, for: "a", writerID: nil, isPlausible: LEDDevice.isPlausible).get()
        == record)
    record.waitingForLine = 2
    let decoded = try TransmissionRecord.decode(
      try record.encoded(), for: "a", writerID: nil, isPlausible: LEDDevice.isPlausible
    ).get()
    #expect(decoded.waitingForLine == 2)
    record.waitingForLine = 0
    #expect(!record.isPlausible(for: "a", isPlausible: LEDDevice.isPlausible))
  }

  @Test func theDeviceNameIsStoredUnderTheKeyTheFormatAlwaysHad() throws {
    let record = TransmissionRecord(
      pid: 42, device: "a", text: "x", totalSymbols: 1, saved: saved, startedAt: 0)
    let text = String(decoding: try record.encoded(), as: UTF8.self)
    #expect(text.contains("\"led\":\"a\""))
  }
}
