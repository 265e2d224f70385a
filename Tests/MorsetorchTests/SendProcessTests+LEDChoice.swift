import Foundation
import MorseTestSupport
import Testing

extension SendProcessTests {
  @Test func unknownLEDListsTheLEDsThatExist() throws {
    let fixture = try timerFixture()
    try fixture.addLED("a:red:status")
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch("send", "--led", "blue:torch", "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    for part in ["blue:torch", "a:red:status", flash] {
      #expect(outcome.standardError.contains(part), "\(outcome)")
    }
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  // No interpolation in the arguments: Swift 6.0.3 (the arm64 build's) crashes on it.
  @Test(arguments: ["../x", "a/b", "..", ".", "", "../leds/" + flash])
  func ledNameThatIsAPathIsAUsageErrorAndNothingIsJoined(_ name: String) throws {
    let fixture = try timerFixture()
    // Decoys where a joined path would lead: root/x (for ../x) and leds/a/b (for a/b).
    let outside = fixture.root + "/x"
    let nested = fixture.ledsPath + "/a/b"
    for directory in [outside, nested] {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      for (attribute, content) in [
        ("max_brightness", "255\n"), ("brightness", "0\n"), ("trigger", "none [timer]\n"),
      ] {
        try Data(content.utf8).write(to: URL(fileURLWithPath: directory + "/" + attribute))
      }
    }
    let decoys = try [outside, nested].map(LEDSnapshot.init(directory:))
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch("send", "--led", name, "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(outcome.standardError.contains("is not an LED name"), "\(outcome)")
    #expect(try [outside, nested].map(LEDSnapshot.init(directory:)) == decoys)
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func invalidLEDNameFromTheEnvironmentIsAUsageError() throws {
    let fixture = try timerFixture()
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch(
      "send", "--unit", "1", "E", in: fixture, environment: ["MORSETORCH_LED": "../x"])
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func anLEDTheEnvironmentNamesThatDoesNotExistIsNamedAsTheVariable() throws {
    let fixture = try timerFixture()
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch(
      "send", "--unit", "1", "E", in: fixture, environment: ["MORSETORCH_LED": "blue:torch"])
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(
      outcome.standardError.hasPrefix("morsetorch: MORSETORCH_LED names no LED: "), "\(outcome)")
    #expect(outcome.standardError.contains("blue:torch"), "\(outcome)")
    #expect(outcome.standardError.contains(flash), "it lists the LEDs that exist: \(outcome)")
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func automaticChoicePrefersTheFlashLED() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("input3::capslock", maxBrightness: 1, trigger: "[kbd-capslock] none")
    try fixture.addLED(
      flash, trigger: "[timer]", attributes: ["delay_on": "100\n", "delay_off": "900\n"])
    let capslock = try LEDSnapshot(of: "input3::capslock", in: fixture)
    let outcome = try runMorsetorch("send", "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    // The plain trigger file was rewritten with the name alone: the flash LED was claimed.
    try expectTimerRestored(fixture)
    #expect(try LEDSnapshot(of: "input3::capslock", in: fixture) == capslock)
    // The one torch among other LEDs is said, as the README promises (issue 31).
    #expect(
      outcome.standardError.contains("\"white:flash\", the torch/flash LED among 2 LEDs"),
      "\(outcome)")
  }

  @Test func automaticChoiceAmongSeveralTorchesIsReported() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("white:torch", trigger: "[none] timer")
    try fixture.addLED(
      flash, trigger: "[timer]", attributes: ["delay_on": "100\n", "delay_off": "900\n"])
    let torch = try LEDSnapshot(of: "white:torch", in: fixture)
    let outcome = try runMorsetorch("send", "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.contains("using LED \"\(flash)\""), "\(outcome)")
    try expectTimerRestored(fixture)
    #expect(try LEDSnapshot(of: "white:torch", in: fixture) == torch)
  }

  @Test func environmentNamesTheLEDAndTheOptionOverridesIt() throws {
    let fixture = try TemporaryLEDDirectory()
    for name in ["a:green:status", "b:red:status"] {
      try fixture.addLED(
        name, trigger: "[timer]", attributes: ["delay_on": "100\n", "delay_off": "900\n"])
    }
    let green = try LEDSnapshot(of: "a:green:status", in: fixture)
    let chosen = try runMorsetorch(
      "send", "--unit", "1", "E", in: fixture, environment: ["MORSETORCH_LED": "b:red:status"])
    #expect(chosen.exitStatus == 0, "\(chosen)")
    try expectTimerRestored(fixture, "b:red:status")
    #expect(try LEDSnapshot(of: "a:green:status", in: fixture) == green)

    let red = try LEDSnapshot(of: "b:red:status", in: fixture)
    let overridden = try runMorsetorch(
      "send", "--led", "a:green:status", "--unit", "1", "E", in: fixture,
      environment: ["MORSETORCH_LED": "b:red:status"])
    #expect(overridden.exitStatus == 0, "\(overridden)")
    try expectTimerRestored(fixture, "a:green:status")
    #expect(try LEDSnapshot(of: "b:red:status", in: fixture) == red)
  }
}

@Suite("send on LEDs chosen by a pattern, as a process")
struct PatternSendProcessTests {
  @Test func anEntryOfTheLEDDirectoryThatIsNoLEDIsPassedOverByAPattern() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("input3::capslock")
    try fixture.addLED("input4::numlock")
    try FileManager.default.createDirectory(
      atPath: fixture.ledsPath + "/junk", withIntermediateDirectories: true)
    // Before: exit 77, "Permission denied" and the udev advice for junk/brightness.
    let outcome = try runMorsetorch("send", "--led", "*", "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.isEmpty, "\(outcome)")
  }
}
