import Foundation
import Glibc
import MorseTestSupport
import Testing

extension SendProcessTests {
  @Test func missingClassDirectory() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      ["send", "--unit", "1", "E"], ledsDirectory: fixture.root + "/no-such-dir")
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains(fixture.root + "/no-such-dir"), "\(outcome)")
    // From a script: the next step too, as `list` gives it.
    #expect(outcome.standardError.contains("send --preview SOS"), "\(outcome)")
  }

  @Test func emptyClassDirectory() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("send", "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains("no LEDs"), "\(outcome)")
    #expect(outcome.standardError.contains("send --dry-run SOS"), "\(outcome)")
  }

  @Test(.enabled(if: MorsetorchProcess.canRunUnprivileged, "needs setpriv(1) when run as root"))
  func permissionDeniedExplainsWhatToDo() throws {
    let fixture = try timerFixture()
    if getuid() != 0 {
      try fixture.setPermissions(0o444, of: "trigger", of: flash)
      try fixture.setPermissions(0o444, of: "brightness", of: flash)
    }
    let before = try LEDSnapshot(of: flash, in: fixture)
    let child = try MorsetorchProcess(
      ["send", "--led", flash, "--unit", "1", "E"], ledsDirectory: fixture.ledsPath,
      launch: .unprivileged)
    child.closeInput()
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 77, "\(outcome)")
    #expect(outcome.standardError.contains("EACCES"), "\(outcome)")
    // The advice fits the machine: where the package made no group yet, the rule and the
    // group to make; joining the group, either way.
    #expect(outcome.standardError.contains("usermod -aG leds"), "\(outcome)")
    if !MorsetorchProcess.machineHasLEDGroup {
      #expect(outcome.standardError.contains("udev"), "\(outcome)")
    }
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func unreadableBrightnessIsAnIOErrorAndTheTriggerStays() throws {
    let fixture = try timerFixture()
    try fixture.removeAttribute("brightness", of: flash)
    try FileManager.default.createDirectory(
      atPath: fixture.devicePath(of: flash) + "/brightness", withIntermediateDirectories: false)
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch("send", "--led", flash, "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 74, "\(outcome)")
    #expect(outcome.standardError.contains("EISDIR"), "\(outcome)")
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func malformedMaxBrightnessMeansTheLEDIsUnavailable() throws {
    let fixture = try timerFixture()
    try fixture.write("lots\n", to: "max_brightness", of: flash)
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch("send", "--led", flash, "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains("max_brightness"), "\(outcome)")
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func ledVanishingDuringALongGapIsNoticedBeforeTheNextWrite() throws {
    let fixture = try timerFixture()
    // E, then a word gap of 3.5 s before the next E: no write would notice the LED is gone.
    let child = try start("send", "--led", flash, "--unit", "500", "E E", in: fixture)
    child.closeInput()
    let wentOn = try eventually { try fixture.read("brightness", of: flash) == "255\n" }
    try #require(wentOn, "the LED never went on")
    let wentOff = try eventually { try fixture.read("brightness", of: flash) == "0\n" }
    try #require(wentOff, "the LED never went off")
    try fixture.removeLED(flash)
    let removed = ContinuousClock.now
    let outcome = try child.wait(timeout: .seconds(10))
    #expect(ContinuousClock.now - removed < .seconds(2), "\(outcome)")
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains("disappeared"), "\(outcome)")
  }

  @Test func ledVanishingMidMessageEndsPromptly() throws {
    let fixture = try timerFixture()
    let child = try start("send", "--led", flash, "--unit", "300", "TTTTT", in: fixture)
    child.closeInput()
    let isOn = try eventually { try fixture.read("brightness", of: flash) == "255\n" }
    try #require(isOn, "the LED never went on")
    try fixture.removeLED(flash)
    let outcome = try child.wait(timeout: .seconds(20))
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains("disappeared"), "\(outcome)")
    #expect(!FileManager.default.fileExists(atPath: fixture.devicePath(of: flash)))
  }

  @Test(arguments: [
    ["--wpm", "0"], ["--wpm", "20", "--unit", "5"], ["--unit", "0"], ["--wpm", "fast"],
    ["--unit", "5", "--farnsworth", "3"], ["--brightness", "0"], ["--dry-run", "--preview"],
    ["--frobnicate"], ["--led"],
  ])
  func usageErrorsLeaveTheLEDAlone(_ options: [String]) throws {
    let fixture = try timerFixture()
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try MorsetorchProcess.run(
      ["send", "E"] + options, ledsDirectory: fixture.ledsPath,
      environment: ["MORSETORCH_LED": flash])
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(outcome.standardError.hasPrefix("morsetorch: "), "\(outcome)")
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }
}
