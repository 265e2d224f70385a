import Foundation
import LinuxSystem
import MorseCore
import DeviceContract
import MorseTestSupport
import Testing

@testable import LEDDriver

/// Claims `name` from the fixture's class directory.
private func claim(
  _ name: String, in fixture: TemporaryLEDDirectory, brightness: BrightnessSetting = .maximum
) throws -> SysfsTorch {
  let led = try LEDClassDirectory(path: fixture.ledsPath).led(named: name)
  return try SysfsTorch(led: led, brightness: brightness)
}

@Suite("SysfsTorch")
struct SysfsTorchTests {
  @Test func claimSavesTriggerAndBrightnessThenWritesNone() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(
      "white:flash", maxBrightness: 255, brightness: 7, trigger: "none [timer] heartbeat",
      attributes: ["delay_on": "100\n", "delay_off": "900\n"])
    let torch = try claim("white:flash", in: fixture)
    #expect(torch.maxBrightness == 255)
    #expect(torch.onValue == 255)
    #expect(torch.saved.trigger == "timer")
    #expect(torch.saved.brightness == 7)
    #expect(torch.saved.triggerAttributes.map(\.name) == ["delay_on", "delay_off"])
    #expect(torch.saved.triggerAttributes.map(\.content) == ["100", "900"])
    #expect(try fixture.read("trigger", of: "white:flash") == "none\n")
    #expect(try fixture.read("brightness", of: "white:flash") == "7\n")
  }

  /// Ctrl-Z: the LED as found while suspended, switches remembered but not made; taken again
  /// (trigger `none`) in the state last asked when resumed.
  @Test func aSuspendedTorchPutsTheLEDBackUntilResumed() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(
      "white:flash", maxBrightness: 255, brightness: 7, trigger: "none [timer] heartbeat",
      attributes: ["delay_on": "100\n", "delay_off": "900\n"])
    let torch = try claim("white:flash", in: fixture)
    try torch.set(true)
    try torch.suspend()
    #expect(try fixture.read("trigger", of: "white:flash") == "timer\n")
    #expect(try fixture.read("delay_on", of: "white:flash") == "100\n")
    try torch.set(false)
    try torch.set(true)
    #expect(try fixture.read("trigger", of: "white:flash") == "timer\n")
    try torch.resume()
    #expect(try fixture.read("trigger", of: "white:flash") == "none\n")
    #expect(try fixture.read("brightness", of: "white:flash") == "255\n")
    try torch.set(false)
    #expect(try fixture.read("brightness", of: "white:flash") == "0\n")
    try torch.restore()
    try torch.resume()
    #expect(try fixture.read("trigger", of: "white:flash") == "timer\n", "restored is for good")
  }

  @Test func claimLeavesTriggerAloneWhenItIsAlreadyNone() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", trigger: "[none] timer heartbeat")
    let torch = try claim("led", in: fixture)
    #expect(torch.saved.trigger == "none")
    #expect(try fixture.read("trigger", of: "led") == "[none] timer heartbeat\n")
  }

  @Test func setWritesExactValuesWithoutLeftovers() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", maxBrightness: 255, brightness: 0)
    let torch = try claim("led", in: fixture)
    try torch.set(true)
    #expect(try fixture.read("brightness", of: "led") == "255\n")
    try torch.set(false)
    // O_TRUNC: "0\n" over "255\n" must not leave "055\n".
    #expect(try fixture.read("brightness", of: "led") == "0\n")
    try torch.set(true)
    #expect(try fixture.read("brightness", of: "led") == "255\n")
  }

  @Test func percentBrightnessIsWrittenWhenOn() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", maxBrightness: 255)
    let torch = try claim("led", in: fixture, brightness: .percent(50))
    #expect(torch.onValue == 128)
    try torch.set(true)
    #expect(try fixture.read("brightness", of: "led") == "128\n")
  }

  @Test func valueBrightnessIsClampedToMaximum() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", maxBrightness: 31)
    #expect(try claim("led", in: fixture, brightness: .value(1000)).onValue == 31)
  }

  @Test(arguments: [
    (BrightnessSetting.maximum, 255, 255), (.maximum, 1, 1),
    (.value(10), 255, 10), (.value(0), 255, 1), (.value(-5), 255, 1), (.value(300), 255, 255),
    (.percent(50), 255, 128), (.percent(100), 255, 255), (.percent(150), 255, 255),
    (.percent(0), 255, 1), (.percent(1), 255, 3), (.percent(10), 1, 1), (.percent(50), 3, 2),
  ])
  func onValues(setting: BrightnessSetting, maximum: Int, expected: Int) {
    #expect(setting.onValue(maximum: maximum) == expected)
  }

  @Test func restoreFromNoneGivesBrightnessBack() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", brightness: 40, trigger: "[none] timer")
    let torch = try claim("led", in: fixture)
    try torch.set(true)
    try torch.restore()
    #expect(try fixture.read("brightness", of: "led") == "40\n")
    #expect(try fixture.read("trigger", of: "led") == "[none] timer\n")
  }

  @Test func aSettingThatWentAwayDuringTheTransmissionIsSkippedAndNamed() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("usb:led", trigger: "none [usbport]")
    try FileManager.default.createDirectory(
      atPath: fixture.devicePath(of: "usb:led") + "/ports", withIntermediateDirectories: true)
    try fixture.write("1\n", to: "ports/1-1", of: "usb:led")
    let torch = try claim("usb:led", in: fixture)
    #expect(torch.saved.triggerAttributes.map(\.name) == ["ports/1-1"])
    try fixture.removeAttribute("ports/1-1", of: "usb:led")  // unplugged meanwhile
    try torch.restore()
    #expect(try fixture.read("trigger", of: "usb:led") == "usbport\n")
    #expect(torch.skippedSettings == [SkippedSetting(name: "ports/1-1", reason: .gone)])
  }

  @Test func restoreFromTimerWritesTriggerThenDelays() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(
      "led", brightness: 255, trigger: "none [timer] heartbeat",
      attributes: ["delay_on": "100\n", "delay_off": "900\n"])
    let torch = try claim("led", in: fixture)
    // The kernel resets the delays when the trigger changes; imitate that.
    try fixture.write("500\n", to: "delay_on", of: "led")
    try fixture.write("500\n", to: "delay_off", of: "led")
    try torch.set(true)
    try torch.restore()
    #expect(try fixture.read("trigger", of: "led") == "timer\n")
    #expect(try fixture.read("delay_on", of: "led") == "100\n")
    #expect(try fixture.read("delay_off", of: "led") == "900\n")
    // Brightness belongs to the trigger: left off, not written back.
    #expect(try fixture.read("brightness", of: "led") == "0\n")
  }

  @Test func restoreFromHeartbeatGivesInvertBack() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(
      "led", trigger: "none timer [heartbeat]", attributes: ["invert": "1\n"])
    let torch = try claim("led", in: fixture)
    try fixture.write("0\n", to: "invert", of: "led")
    try torch.restore()
    #expect(try fixture.read("trigger", of: "led") == "heartbeat\n")
    #expect(try fixture.read("invert", of: "led") == "1\n")
  }

  @Test func restoreFromPatternGivesPatternAndRepeatBack() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(
      "led", trigger: "none [pattern]",
      attributes: ["pattern": "255 500 0 500 \n", "repeat": "-1\n"])
    let torch = try claim("led", in: fixture)
    try fixture.write("\n", to: "pattern", of: "led")
    try fixture.write("1\n", to: "repeat", of: "led")
    try torch.restore()
    #expect(try fixture.read("trigger", of: "led") == "pattern\n")
    #expect(try fixture.read("pattern", of: "led") == "255 500 0 500 \n")
    #expect(try fixture.read("repeat", of: "led") == "-1\n")
  }

  @Test func triggerAttributesThatDoNotExistAreSkipped() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", trigger: "none [oneshot]", attributes: ["delay_on": "70\n"])
    let torch = try claim("led", in: fixture)
    #expect(torch.saved.triggerAttributes.map(\.name) == ["delay_on"])
    try torch.restore()
    #expect(try fixture.read("trigger", of: "led") == "oneshot\n")
    #expect(try fixture.read("delay_on", of: "led") == "70\n")
  }

  @Test func restoreTwiceDoesNothingTheSecondTime() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", brightness: 3)
    let torch = try claim("led", in: fixture)
    try torch.restore()
    try fixture.write("99\n", to: "brightness", of: "led")
    try torch.restore()
    #expect(try fixture.read("brightness", of: "led") == "99\n")
  }

  @Test func setAfterRestoreLeavesTheLEDAlone() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", brightness: 3)
    let torch = try claim("led", in: fixture)
    try torch.restore()
    try torch.set(true)
    #expect(try fixture.read("brightness", of: "led") == "3\n")
  }

  @Test func restoreAttemptsEveryStepAndThrowsTheFirstError() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(
      "led", trigger: "none [timer]", attributes: ["delay_on": "100\n", "delay_off": "900\n"])
    let torch = try claim("led", in: fixture)
    // Make `brightness` unwritable even for root: a directory in its place.
    try fixture.removeAttribute("brightness", of: "led")
    try FileManager.default.createDirectory(
      atPath: fixture.devicePath(of: "led") + "/brightness", withIntermediateDirectories: false)
    try fixture.write("500\n", to: "delay_on", of: "led")
    let path = fixture.ledPath(of: "led") + "/brightness"
    #expect(throws: LEDError.io(operation: "write", path: path, errno: Errno(code: EISDIR))) {
      try torch.restore()
    }
    #expect(try fixture.read("trigger", of: "led") == "timer\n")
    #expect(try fixture.read("delay_on", of: "led") == "100\n")
  }

  @Test func restoreAfterTheLEDVanishedThrowsVanished() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", trigger: "none [timer]")
    let torch = try claim("led", in: fixture)
    try torch.set(true)
    try fixture.removeLED("led")
    let path = fixture.ledPath(of: "led")
    #expect(throws: LEDError.vanished(path: path, errno: Errno(code: ENOENT))) {
      try torch.restore()
    }
    #expect(!FileManager.default.fileExists(atPath: fixture.ledPath(of: "led")))
    try torch.restore()
  }

  @Test func setAfterTheLEDVanishedThrowsVanished() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led")
    let torch = try claim("led", in: fixture)
    try fixture.removeLED("led")
    let path = fixture.ledPath(of: "led") + "/brightness"
    #expect(throws: LEDError.vanished(path: path, errno: Errno(code: ENOENT))) {
      try torch.set(true)
    }
  }

  @Test func malformedMaxBrightnessIsReportedWithNothingChanged() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", trigger: "none [timer]")
    try fixture.write("bright\n", to: "max_brightness", of: "led")
    let path = fixture.ledPath(of: "led") + "/max_brightness"
    #expect(throws: LEDError.malformed(path: path, content: "bright")) {
      try claim("led", in: fixture)
    }
    #expect(try fixture.read("trigger", of: "led") == "none [timer]\n")
  }

  @Test func zeroMaxBrightnessIsMalformed() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", maxBrightness: 0)
    let path = fixture.ledPath(of: "led") + "/max_brightness"
    #expect(throws: LEDError.malformed(path: path, content: "0")) {
      try claim("led", in: fixture)
    }
  }

  @Test func malformedBrightnessIsReportedWithNothingChanged() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", trigger: "none [timer]")
    try fixture.write("\n", to: "brightness", of: "led")
    let path = fixture.ledPath(of: "led") + "/brightness"
    #expect(throws: LEDError.malformed(path: path, content: "")) {
      try claim("led", in: fixture)
    }
    #expect(try fixture.read("trigger", of: "led") == "none [timer]\n")
  }

  @Test func triggerWithoutActiveEntryIsMalformed() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", trigger: "none timer")
    let path = fixture.ledPath(of: "led") + "/trigger"
    #expect(throws: LEDError.malformed(path: path, content: "none timer")) {
      try claim("led", in: fixture)
    }
  }

  @Test func ledWithoutTriggerAttributeStillWorks() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", brightness: 9, trigger: nil)
    let torch = try claim("led", in: fixture)
    #expect(torch.saved.trigger == nil)
    try torch.set(true)
    try torch.restore()
    #expect(try fixture.read("brightness", of: "led") == "9\n")
    #expect(!FileManager.default.fileExists(atPath: fixture.devicePath(of: "led") + "/trigger"))
  }

  @Test func ledWithoutMaxBrightnessHasVanished() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led")
    try fixture.removeAttribute("max_brightness", of: "led")
    let path = fixture.ledPath(of: "led") + "/max_brightness"
    #expect(throws: LEDError.vanished(path: path, errno: Errno(code: ENOENT))) {
      try claim("led", in: fixture)
    }
  }

  @Test(.enabled(if: getuid() != 0, "root may write a 0444 file"))
  func unwritableTriggerFailsTheClaimWithNothingChanged() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", brightness: 5, trigger: "none [timer]")
    try fixture.setPermissions(0o444, of: "trigger", of: "led")
    let path = fixture.ledPath(of: "led") + "/trigger"
    #expect(throws: LEDError.permissionDenied(path: path, errno: Errno(code: EACCES))) {
      try claim("led", in: fixture)
    }
    #expect(try fixture.read("trigger", of: "led") == "none [timer]\n")
    #expect(try fixture.read("brightness", of: "led") == "5\n")
  }

  @Test func restoreFromAnotherThreadEndsSwitching() async throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", brightness: 17)
    let torch = try claim("led", in: fixture)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for index in 0..<200 { try? torch.set(index.isMultiple(of: 2)) }
        }
      }
      group.addTask { try? torch.restore() }
    }
    // Whatever interleaving happened, nothing switched after the restore.
    #expect(try fixture.read("brightness", of: "led") == "17\n")
  }
}

@Suite("LEDError")
struct TorchErrorTests {
  @Test(arguments: [
    (EACCES, "permissionDenied"), (EPERM, "permissionDenied"), (EBUSY, "busy"),
    (ENOENT, "vanished"), (ENODEV, "vanished"), (ENXIO, "vanished"), (EINVAL, "io"),
    (EIO, "io"),
  ])
  func errnoMapping(code: Int32, kind: String) {
    let error = LEDError(Errno(code: code), operation: "write", path: "/p")
    switch error {
    case .permissionDenied(let path, let errno):
      #expect(kind == "permissionDenied" && path == "/p" && errno.code == code)
    case .busy(let path):
      #expect(kind == "busy" && path == "/p")
    case .vanished(let path, let errno):
      #expect(kind == "vanished" && path == "/p" && errno.code == code)
    case .io(let operation, let path, let errno):
      #expect(kind == "io" && operation == "write" && path == "/p" && errno.code == code)
    default:
      Issue.record("unexpected \(error)")
    }
  }

  @Test func permissionDeniedNamesTheFileAndNoCommand() {
    let text =
      LEDError.permissionDenied(path: "/sys/class/leds/x/brightness", errno: Errno(code: EACCES))
      .description
    #expect(text == "Cannot access /sys/class/leds/x/brightness: Permission denied (EACCES).")
  }

  @Test func ledNotFoundListsTheLEDsButNoCommand() {
    let text = LEDError.ledNotFound("torch", available: ["a", "b"]).description
    #expect(text.contains("\"torch\""))
    #expect(text.contains("a, b"))
    #expect(!text.contains("morsetorch"))
  }

  @Test func otherDescriptionsSayWhatHappened() {
    #expect(LEDError.busy(path: "/f").description.contains("camera"))
    #expect(LEDError.busy(path: "/f").description.contains("try again"))
    let vanished = LEDError.vanished(path: "/f", errno: Errno(code: ENODEV)).description
    #expect(vanished.contains("disappeared") && vanished.contains("ENODEV"))
    #expect(LEDError.invalidName("a\0b").description.contains(#""a\0b""#))
    #expect(LEDError.malformed(path: "/m", content: "x").description.contains("/m"))
    #expect(LEDError.classDirectoryMissing(path: "/c").description.contains("/c"))
    #expect(LEDError.noLEDs(directory: "/d").description.contains("/d"))
    let io = LEDError.io(operation: "write", path: "/f", errno: Errno(code: EINVAL))
    #expect(io.description == "Could not write /f: Invalid argument (EINVAL).")
  }
}
