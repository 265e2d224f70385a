import Foundation
import MorseTestSupport
import LinuxSystem
import DeviceContract
import Testing

@testable import LEDDriver

@Suite("SavedLEDState")
struct SavedLEDStateTests {
  @Test func anyTriggersFilesAreSavedWellKnownOnesFirst() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(
      "router:green:wan", trigger: "none timer [netdev]",
      attributes: [
        "tx": "1\n", "device_name": "lo\n", "link": "0\n", "rx": "1\n", "interval": "50\n",
        "offloaded": "0\n",
      ])
    let led = try LEDClassDirectory(path: fixture.ledsPath).led(named: "router:green:wan")
    let saved = try SavedLEDState(of: led)
    #expect(saved.trigger == "netdev")
    #expect(
      saved.triggerAttributes.map(\.name)
        == ["device_name", "link", "rx", "tx", "interval", "offloaded"])
    #expect(saved.triggerAttributes.first?.content == "lo")
    #expect(saved.isPlausible)
  }

  @Test func filesInsideATriggersDirectoryAreSavedToo() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("usb:led", trigger: "none [usbport]")
    let device = fixture.devicePath(of: "usb:led")
    try FileManager.default.createDirectory(
      atPath: device + "/ports", withIntermediateDirectories: true)
    try "1\n".write(toFile: device + "/ports/1-1", atomically: false, encoding: .utf8)
    try "0\n".write(toFile: device + "/ports/2-1", atomically: false, encoding: .utf8)
    let led = try LEDClassDirectory(path: fixture.ledsPath).led(named: "usb:led")
    let saved = try SavedLEDState(of: led)
    #expect(saved.triggerAttributes.map(\.name) == ["ports/1-1", "ports/2-1"])
  }

  @Test func onlyWhatWentWithTheTriggerIsKept() {
    let saved = SavedLEDState(
      trigger: "future", brightness: 0,
      triggerAttributes: [
        .init(name: "speed", content: "3"), .init(name: "flash_timeout", content: "100"),
        .init(name: "ports/1-1", content: "1"),
      ])
    // After `none`, the LED's own `flash_timeout` is still there; the trigger's files are gone.
    let kept = saved.keepingTriggerSettings(
      remaining: ["brightness", "max_brightness", "trigger", "uevent", "flash_timeout"])
    #expect(kept.triggerAttributes.map(\.name) == ["speed", "ports/1-1"])
    // Well-known settings stay whatever the file system does (plain files never go).
    let timer = SavedLEDState(
      trigger: "timer", brightness: 0, triggerAttributes: [.init(name: "delay_on", content: "9")])
    #expect(timer.keepingTriggerSettings(remaining: ["delay_on"]) == timer)
  }

  @Test(arguments: [
    ("delay_on", true), ("ports/1-1", true), ("link_1000", true), ("ttyname", true),
    ("../x", false), ("a/b/c", false), ("brightness", false), ("trigger", false), (".x", false),
    ("", false), ("a b", false), (String(repeating: "x", count: 65), false), ("x/", false),
  ])
  func settingNamesFollowOneRule(name: String, isSetting: Bool) {
    #expect(SavedLEDState.isSettingName(name) == isSetting)
  }

  @Test func whatIsSavedIsAlwaysPlausible() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(
      "odd", trigger: "none [x]",
      attributes: [
        "two_lines": "a\nb\n", "ok": "1\n", ".hidden": "1\n",
        "long": "\(String(repeating: "9", count: 5000))\n",
      ])
    let led = try LEDClassDirectory(path: fixture.ledsPath).led(named: "odd")
    let saved = try SavedLEDState(of: led)
    #expect(saved.triggerAttributes.map(\.name) == ["ok"])
    #expect(saved.isPlausible)
  }

  // No interpolation in the arguments: Swift 6.0.3 (the arm64 build's) crashes on it.
  @Test(arguments: ["[ä]", "[" + String(repeating: "t", count: 65) + "]"])
  func anLEDWhoseTriggerNameNoRecordCouldHoldIsNotClaimed(trigger: String) throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("odd", trigger: "none " + trigger)
    let led = try LEDClassDirectory(path: fixture.ledsPath).led(named: "odd")
    #expect(throws: LEDError.self) { _ = try SavedLEDState(of: led) }
    #expect(try fixture.read("trigger", of: "odd") == "none \(trigger)\n")
  }
}

@Suite("SavedLEDState.restore, from a record that is input from another user")
struct SavedLEDStateRestoreTests {
  private func led(_ fixture: TemporaryLEDDirectory) throws -> LED {
    try fixture.addLED(
      "input3::capslock", trigger: "[none] timer",
      attributes: ["delay_on": "500\n", "speed": "9\n"])
    try FileManager.default.createDirectory(
      atPath: fixture.devicePath(of: "input3::capslock") + "/power",
      withIntermediateDirectories: true)
    try fixture.write("auto\n", to: "power/control", of: "input3::capslock")
    return try LEDClassDirectory(path: fixture.ledsPath).led(named: "input3::capslock")
  }

  @Test func onlyTheSavedTriggersOwnSettingsAreWritten() throws {
    let fixture = try TemporaryLEDDirectory()
    let saved = SavedLEDState(
      trigger: "timer", brightness: 0,
      triggerAttributes: [
        .init(name: "delay_on", content: "70"), .init(name: "speed", content: "1"),
        .init(name: "power/control", content: "on"),
      ])
    let skipped = try saved.restore(to: try led(fixture), settingsGrace: .zero)
    #expect(try fixture.read("trigger", of: "input3::capslock") == "timer\n")
    #expect(try fixture.read("delay_on", of: "input3::capslock") == "70\n")
    // Files that were there before the trigger was written are not the trigger's.
    #expect(try fixture.read("speed", of: "input3::capslock") == "9\n")
    #expect(try fixture.read("power/control", of: "input3::capslock") == "auto\n")
    #expect(
      skipped == [
        SkippedSetting(name: "speed", reason: .notTriggerSetting(trigger: "timer")),
        SkippedSetting(name: "power/control", reason: .notTriggerSetting(trigger: "timer")),
      ])
  }

  @Test func whatTheRecordsWriterMayNotWriteIsLeftAloneAndNotEmptied() throws {
    let fixture = try TemporaryLEDDirectory()
    let led = try led(fixture)
    try fixture.setPermissions(0o644, of: "delay_on", of: "input3::capslock")
    let stranger = UserRights(userID: 4242, name: "mallory", groupID: 4242, groupIDs: [])
    let saved = SavedLEDState(
      trigger: "timer", brightness: 0, triggerAttributes: [.init(name: "delay_on", content: "7")])
    let skipped = try saved.restore(to: led, writer: stranger, settingsGrace: .zero)
    #expect(try fixture.read("delay_on", of: "input3::capslock") == "500\n")
    #expect(
      skipped.contains(
        SkippedSetting(name: "delay_on", reason: .writerMayNotWrite(writer: "mallory (uid 4242)"))))
  }

  @Test func aSettingRepeatedInARecordIsTriedOnce() throws {
    let fixture = try TemporaryLEDDirectory()
    let led = try led(fixture)
    try fixture.setPermissions(0o644, of: "delay_on", of: "input3::capslock")
    let stranger = UserRights(userID: 4242, name: "mallory", groupID: 4242, groupIDs: [])
    let saved = SavedLEDState(
      trigger: "timer", brightness: 0,
      triggerAttributes: Array(repeating: .init(name: "delay_on", content: "7"), count: 50))
    let skipped = try saved.restore(to: led, writer: stranger, settingsGrace: .milliseconds(20))
    #expect(skipped.filter { $0.name == "delay_on" }.count == 1, "\(skipped)")
    #expect(try fixture.read("delay_on", of: "input3::capslock") == "500\n")
  }

  @Test func aSettingThatIsGoneIsSkippedAndTheRestRestored() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("usb:led", trigger: "[none] usbport")
    let led = try LEDClassDirectory(path: fixture.ledsPath).led(named: "usb:led")
    let saved = SavedLEDState(
      trigger: "usbport", brightness: 0, triggerAttributes: [.init(name: "ports/1-1", content: "1")])
    let skipped = try saved.restore(to: led, settingsGrace: .zero)
    #expect(skipped == [SkippedSetting(name: "ports/1-1", reason: .gone)])
    #expect(try fixture.read("trigger", of: "usb:led") == "usbport\n")
  }

  @Test func noSettingIsWrittenThroughALink() throws {
    let fixture = try TemporaryLEDDirectory()
    let led = try led(fixture)
    try Data("0\n".utf8).write(to: URL(fileURLWithPath: fixture.root + "/inhibited"))
    // `delay_on` made a link to a file outside the LED (as `device` is on a real input LED).
    try fixture.removeAttribute("delay_on", of: "input3::capslock")
    try FileManager.default.createSymbolicLink(
      atPath: fixture.devicePath(of: "input3::capslock") + "/delay_on",
      withDestinationPath: fixture.root + "/inhibited")
    let saved = SavedLEDState(
      trigger: "timer", brightness: 0, triggerAttributes: [.init(name: "delay_on", content: "1")])
    #expect(throws: LEDError.self) { try saved.restore(to: led, settingsGrace: .zero) }
    #expect(try String(contentsOfFile: fixture.root + "/inhibited") == "0\n")
  }
}
