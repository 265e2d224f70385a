import Foundation
import LinuxSystem
import MorseCore
import MorseTestSupport
import Testing

@testable import LEDDriver

@Suite("LEDClassDirectory")
struct LEDClassDirectoryTests {
  @Test func environmentOverridesTheDefaultPath() {
    #expect(LEDClassDirectory(environment: ["MORSETORCH_LEDS_DIR": "/tmp/x"]).path == "/tmp/x")
    #expect(LEDClassDirectory(environment: ["MORSETORCH_LEDS_DIR": ""]).path == "/sys/class/leds")
    #expect(LEDClassDirectory(environment: [:]).path == LEDClassDirectory.defaultPath)
  }

  @Test func namesAndPatternsChooseLEDsSortedWithoutRepeats() throws {
    let fixture = try TemporaryLEDDirectory()
    for name in ["input3::capslock", "input4::capslock", "input3::numlock", "tp[1]:green:lid"] {
      try fixture.addLED(name)
    }
    let directory = LEDClassDirectory(path: fixture.ledsPath)
    let names = { (requests: [String]) in try directory.leds(matching: requests).map(\.name) }
    #expect(try names(["*::capslock"]) == ["input3::capslock", "input4::capslock"])
    #expect(
      try names(["input4::capslock", "input3::*", "*::capslock"])
        == ["input3::capslock", "input3::numlock", "input4::capslock"])
    #expect(try names(["*:green:*"]) == ["tp[1]:green:lid"])
    // A name with a pattern character in it is taken as the name it is.
    #expect(try names(["tp[1]:green:lid"]) == ["tp[1]:green:lid"])
    #expect(throws: LEDError.noMatch(pattern: "*:red:*", available: try directory.names())) {
      _ = try directory.leds(matching: ["input3::numlock", "*:red:*"])
    }
    #expect(throws: LEDError.ledNotFound("nope", available: try directory.names())) {
      _ = try directory.leds(matching: ["nope"])
    }
    #expect(throws: LEDError.invalidName("../x")) { _ = try directory.leds(matching: ["../x"]) }
  }

  @Test func listIsSortedFollowsSymlinksAndParsesAttributes() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("input3::capslock", maxBrightness: 1, brightness: 1, trigger: "none")
    try fixture.addLED(
      "white:flash", maxBrightness: 255, brightness: 12, trigger: "none [timer] heartbeat")
    try fixture.addLED("ACT", maxBrightness: 255, brightness: 0, trigger: "[mmc0] none timer")
    let infos = try LEDClassDirectory(path: fixture.ledsPath).list()
    #expect(infos.map(\.name) == ["ACT", "input3::capslock", "white:flash"])
    #expect(
      infos[2]
        == LEDInfo(
          name: "white:flash", maxBrightness: 255, activeTrigger: "timer", brightness: 12,
          unwritable: []))
    #expect(infos[0].activeTrigger == "mmc0")
    #expect(infos[1].activeTrigger == "none")
    #expect(infos[1].maxBrightness == 1)
  }

  @Test func listSkipsStrayFilesAndDanglingSymlinks() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("real")
    try Data("x".utf8).write(to: URL(fileURLWithPath: fixture.ledsPath + "/stray"))
    try FileManager.default.createSymbolicLink(
      atPath: fixture.ledsPath + "/dangling", withDestinationPath: fixture.root + "/nowhere")
    #expect(try LEDClassDirectory(path: fixture.ledsPath).list().map(\.name) == ["real"])
  }

  @Test func aDirectoryWithNoBrightnessIsNoLEDToListOrMatch() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("real")
    try FileManager.default.createDirectory(
      atPath: fixture.ledsPath + "/junk", withIntermediateDirectories: true)
    let directory = LEDClassDirectory(path: fixture.ledsPath)
    #expect(try directory.list().map(\.name) == ["real"])
    #expect(try directory.leds(matching: ["*"]).map(\.name) == ["real"])
    #expect(throws: LEDError.ledNotFound("junk", available: ["real"])) {
      try directory.led(named: "junk")
    }
  }

  /// `brightness` of LED `led` made a link to nowhere: there, but neither readable nor
  /// writable, even by root.
  private func unreadableBrightness(_ fixture: TemporaryLEDDirectory) throws {
    try fixture.removeAttribute("brightness", of: "led")
    try FileManager.default.createSymbolicLink(
      atPath: fixture.devicePath(of: "led") + "/brightness", withDestinationPath: "nowhere")
  }

  @Test func listShowsUnreadableValuesAsNil() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", trigger: nil)
    try fixture.write("lots\n", to: "max_brightness", of: "led")
    try unreadableBrightness(fixture)
    let info = try #require(try LEDClassDirectory(path: fixture.ledsPath).list().first)
    #expect(info.maxBrightness == nil)
    #expect(info.activeTrigger == nil)
    #expect(info.brightness == nil)
  }

  @Test func listOfEmptyDirectoryIsEmpty() throws {
    let fixture = try TemporaryLEDDirectory()
    #expect(try LEDClassDirectory(path: fixture.ledsPath).list().isEmpty)
  }

  @Test func listOfMissingDirectoryThrowsClassDirectoryMissing() throws {
    let fixture = try TemporaryLEDDirectory()
    let path = fixture.root + "/missing"
    #expect(throws: LEDError.classDirectoryMissing(path: path)) {
      try LEDClassDirectory(path: path).list()
    }
  }

  @Test func withoutATriggerFileOnlyBrightnessIsNeeded() throws {
    // `send` works on an LED without trigger support: it was listed as not writable before.
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", trigger: nil)
    #expect(try LEDClassDirectory(path: fixture.ledsPath).list().first?.unwritable == [])
  }

  @Test func whatCannotBeWrittenIsNamed() throws {
    // A missing file cannot be written even by root, so this holds in every environment.
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led", trigger: "none [timer]", attributes: ["delay_on": "5\n"])
    try unreadableBrightness(fixture)
    let info = try #require(try LEDClassDirectory(path: fixture.ledsPath).list().first)
    #expect(info.unwritable == ["brightness"])
    #expect(!info.isWritable)
  }

  @Test(.enabled(if: getuid() != 0, "root may write a 0444 file"))
  func notWritableWhenBrightnessIsReadOnly() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led")
    try fixture.setPermissions(0o444, of: "brightness", of: "led")
    #expect(try LEDClassDirectory(path: fixture.ledsPath).list().first?.isWritable == false)
  }

  @Test(arguments: ["", ".", "..", "/", "a/b", "../leds", "a\0b", "led/"])
  func invalidNamesAreRejectedBeforeAnyPathJoin(name: String) throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("led")
    #expect(throws: LEDError.invalidName(name)) {
      try LEDClassDirectory(path: fixture.ledsPath).led(named: name)
    }
  }

  @Test func invalidNameIsRejectedEvenWhenTheDirectoryIsMissing() {
    #expect(throws: LEDError.invalidName("..")) {
      try LEDClassDirectory(path: "/nonexistent/leds").led(named: "..")
    }
  }

  @Test func ledNamedReturnsThePathInTheClassDirectory() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("white:flash")
    let led = try LEDClassDirectory(path: fixture.ledsPath).led(named: "white:flash")
    #expect(led == LED(name: "white:flash", path: fixture.ledsPath + "/white:flash"))
    #expect(led.attributePath("brightness") == fixture.ledsPath + "/white:flash/brightness")
  }

  @Test func unknownNameListsTheAvailableLEDs() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("b")
    try fixture.addLED("a")
    #expect(throws: LEDError.ledNotFound("c", available: ["a", "b"])) {
      try LEDClassDirectory(path: fixture.ledsPath).led(named: "c")
    }
  }

  @Test func unknownNameInMissingDirectoryThrowsClassDirectoryMissing() {
    #expect(throws: LEDError.classDirectoryMissing(path: "/nonexistent/leds")) {
      try LEDClassDirectory(path: "/nonexistent/leds").led(named: "led")
    }
  }

  @Test func aNamedLEDIsTakenOverTheTorch() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("white:flash")
    try fixture.addLED("input3::capslock")
    let chosen = try LEDClassDirectory(path: fixture.ledsPath).leds(matching: ["input3::capslock"])
    #expect(chosen.map(\.name) == ["input3::capslock"])
  }

  @Test func anUnknownNamedLEDThrowsLEDNotFound() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("white:flash")
    #expect(throws: LEDError.ledNotFound("torch", available: ["white:flash"])) {
      try LEDClassDirectory(path: fixture.ledsPath).leds(matching: ["torch"])
    }
  }

  @Test func choosePrefersTheOnlyTorchWithoutNote() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("ACT")
    try fixture.addLED("input3::capslock")
    try fixture.addLED("white:flash")
    let choice = try LEDClassDirectory(path: fixture.ledsPath).chooseLED()
    #expect(choice.led.name == "white:flash")
    #expect(choice.candidates.count <= 1)
  }

  @Test func chooseAmongSeveralTorchesTakesTheFirstAndSaysSo() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("white:flash")
    try fixture.addLED("led:torch")
    try fixture.addLED("mmc0::")
    let choice = try LEDClassDirectory(path: fixture.ledsPath).chooseLED()
    #expect(choice.led.name == "led:torch")
    #expect(choice.candidates == ["led:torch", "white:flash"])
    #expect(choice.areTorches)
  }

  @Test func chooseWithoutTorchesTakesTheFirstOfAllAndSaysSo() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("mmc0::")
    try fixture.addLED("ACT")
    let choice = try LEDClassDirectory(path: fixture.ledsPath).chooseLED()
    #expect(choice.led.name == "ACT")
    #expect(choice.candidates == ["ACT", "mmc0::"])
    #expect(!choice.areTorches)
  }

  @Test func chooseTheOnlyLEDWithoutNote() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("ACT")
    let choice = try LEDClassDirectory(path: fixture.ledsPath).chooseLED()
    #expect(choice.led.name == "ACT")
    #expect(choice.candidates.count <= 1)
  }

  @Test func chooseInEmptyDirectoryThrowsNoLEDs() throws {
    let fixture = try TemporaryLEDDirectory()
    #expect(throws: LEDError.noLEDs(directory: fixture.ledsPath)) {
      try LEDClassDirectory(path: fixture.ledsPath).chooseLED()
    }
  }

  @Test(arguments: [
    ("white:flash", true), ("led:torch", true), ("platform::TORCH", true),
    ("flashlight", true), ("phone:white:torch-light", true), ("input3::capslock", false),
    ("ACT", false), ("mmc0::", false), ("green:status", false),
  ])
  func torchNames(name: String, isTorch: Bool) {
    #expect(LEDClassDirectory.isTorchName(name) == isTorch)
  }

  @Test(
    arguments: [
      ("none [timer] heartbeat", "timer"), ("[none] timer", "none"), ("none", "none"),
      ("timer\n", "timer"), ("none kbd-capslock [kbd-capslock-2]\n", "kbd-capslock-2"),
      ("none timer", nil), ("", nil), ("[] none timer", nil),
    ] as [(String, String?)])
  func activeTriggerParsing(text: String, active: String?) {
    #expect(LED.parseActiveTrigger(text) == active)
  }

  @Test(
    arguments: [("255\n", 255), ("0", 0), (" 7 \n", 7), ("", nil), ("12a\n", nil)]
      as [(String, Int?)])
  func decimalParsing(text: String, value: Int?) {
    #expect(LED.parseDecimal(text) == value)
  }
}
