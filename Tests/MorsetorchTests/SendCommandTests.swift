import LEDDriver
import LinuxSystem
import MorseCore
import Testing
import TransmitterControl

@testable import MorsetorchTool

/// The plan of `send` with these words.
private func send(_ words: String...) throws -> SendPlan {
  try SendPlan(ParsedArguments(words, command: "send"))
}

@Suite("SendCommand options")
struct SendCommandTests {
  @Test func aRerunTogglesUnlessToldToReplaceOrWait() throws {
    #expect(try send("SOS").conflicts == .toggle)
    #expect(try send("--replace", "SOS").conflicts == .replace)
    #expect(try send("--wait", "SOS").conflicts == .wait)
    #expect(try send("--queue", "SOS").conflicts == .wait)
    #expect(throws: UsageError.conflictingOptions("--replace", "--wait")) {
      try send("--replace", "--wait", "SOS").conflicts
    }
    #expect(throws: UsageError.conflictingOptions("--replace", "--queue")) {
      try send("--queue", "--replace", "SOS").conflicts
    }
  }

  @Test func defaultTimingIsTwelveWordsPerMinute() throws {
    #expect(try send("SOS").timing == MorseTiming.standard)
    #expect(try send("SOS").timing.unit == .milliseconds(100))
  }

  @Test func wordsPerMinuteSetsTheUnit() throws {
    let timing = try send("--wpm", "20").timing
    #expect(timing.unit == .milliseconds(60))
    #expect(timing.letterGap == .milliseconds(180))
    #expect(timing.wordGap == .milliseconds(420))
  }

  @Test func unitSetsTheUnitInMilliseconds() throws {
    let timing = try send("--unit=5").timing
    #expect(timing == MorseTiming(unit: .milliseconds(5)))
  }

  @Test func wordsPerMinuteAndUnitConflict() {
    #expect(throws: UsageError.conflictingOptions("--wpm", "--unit")) {
      try send("--wpm", "20", "--unit", "5").timing
    }
    #expect(throws: UsageError.conflictingOptions("--wpm", "--unit")) {
      try send("--unit", "5", "--wpm", "20").timing
    }
  }

  @Test func farnsworthNeedsWordsPerMinuteNotUnit() {
    #expect(throws: UsageError.requiresOption("--farnsworth", requirement: "--wpm, not --unit")) {
      try send("--unit", "5", "--farnsworth", "10").timing
    }
  }

  @Test func farnsworthStretchesOnlyTheGaps() throws {
    let timing = try send("--wpm", "20", "--farnsworth", "10").timing
    #expect(timing.unit == .milliseconds(60))
    #expect(timing.letterGap > .milliseconds(180))
    #expect(timing.wordGap > .milliseconds(420))
    // Farnsworth alone, with the default character speed of 12.
    #expect(try send("--farnsworth", "6").timing.unit == .milliseconds(100))
  }

  @Test func farnsworthFasterThanTheCharactersIsRejected() {
    #expect(throws: TimingError.farnsworthFasterThanCharacters(farnsworth: 30, wordsPerMinute: 20))
    {
      try send("--wpm", "20", "--farnsworth", "30").timing
    }
  }

  @Test(arguments: [0, 201])
  func wordsPerMinuteOutOfRange(_ value: Int) {
    #expect(throws: TimingError.wordsPerMinuteOutOfRange(value)) {
      try send("--wpm=\(value)").timing
    }
  }

  @Test(arguments: [0, 10_001])
  func unitOutOfRange(_ value: Int) {
    #expect(throws: TimingError.unitOutOfRange(value)) {
      try send("--unit=\(value)").timing
    }
  }

  @Test func rangeLimitsAreAccepted() throws {
    #expect(try send("--wpm", "1").timing.unit == .milliseconds(1200))
    #expect(try send("--wpm", "200").timing.unit == .milliseconds(6))
    #expect(try send("--unit", "1").timing.unit == .milliseconds(1))
    #expect(try send("--unit", "10000").timing.unit == .seconds(10))
  }

  @Test func farnsworthOutOfRange() {
    #expect(throws: TimingError.farnsworthOutOfRange(0)) {
      try send("--wpm", "20", "--farnsworth", "0").timing
    }
  }

  @Test(arguments: ["fast", "12.5", "", "0x10", "+5", "-5", " 5", "5 ", "1_0", "٥"])
  func aSpeedIsDecimalDigitsOnly(_ value: String) {
    #expect(
      throws: UsageError.invalidValue(
        option: "--wpm", value: value, expected: "a whole number from 1 to 200")
    ) {
      try send("--wpm", value).timing
    }
  }

  @Test(arguments: [
    ("unit", "a whole number from 1 to 10000"), ("farnsworth", "a whole number from 1 to 200"),
    ("repeat", "a whole number from 1 to 1000000"),
  ])
  func aSignedNumberIsRefusedSayingWhatTheOptionAccepts(_ option: String, _ expected: String) {
    #expect(throws: UsageError.invalidValue(option: "--\(option)", value: "+5", expected: expected))
    {
      _ = try send("--wpm", "20", "--\(option)", "+5", "E")
    }
  }

  @Test(arguments: [
    ["--wpm", "13"], ["--wpm", "200"], ["--wpm", "1"], ["--unit", "7"],
    ["--wpm", "20", "--farnsworth", "7"],
  ])
  func theShortestPauseIsAWordGapAndTheTimeItsErrorNamesIsAccepted(speed: [String]) throws {
    let repeating = { (pause: [String]) in
      try SendPlan(ParsedArguments(speed + ["--repeat", "2"] + pause + ["E"], command: "send"))
    }
    let timing = try repeating([]).timing
    let shortest = SendPlan.shortestPause(timing)
    #expect(shortest >= timing.wordGap && shortest - timing.wordGap < .microseconds(1))
    let named = try repeating(["--pause", shortest.millisecondsText + "ms"])
    #expect(named.repetition.pause == shortest)
    let shorter = ["--pause", (shortest - .microseconds(1)).millisecondsText + "ms"]
    // Not `#expect(throws:)`'s result: Swift 6.0.3 (the arm64 build's) has none.
    var refused: UsageError?
    do {
      _ = try repeating(shorter)
    } catch let error as UsageError {
      refused = error
    }
    #expect(refused?.description.contains("\(shortest.millisecondsText)ms at this speed") == true)
  }

  @Test func moreGPIOLinesThanAStateRecordNamesAreAUsageError() throws {
    let limit = TransmissionRecord.groupLimit
    let lines = { (count: Int) in (0..<count).flatMap { ["--gpio", "gpiochip0:\($0)"] } }
    #expect(
      throws: UsageError.tooManyDevices(
        option: "--gpio", count: limit + 1, devices: "GPIO lines", limit: limit)
    ) {
      _ = try GPIOChoice(ParsedArguments(lines(limit + 1), command: "send"))
    }
    let atTheLimit = try GPIOChoice(
      ParsedArguments(lines(limit), command: "send"))
    #expect(atTheLimit.addresses.count == limit)
  }

  @Test func defaultBrightnessIsMaximum() throws {
    #expect(try send("E").brightness == .maximum)
  }

  @Test(arguments: [
    ("50%", BrightnessSetting.percent(50)), ("1%", .percent(1)), ("100%", .percent(100)),
    ("128", .value(128)), ("1", .value(1)), ("100000", .value(100_000)),
  ])
  func brightnessValues(_ text: String, _ expected: BrightnessSetting) throws {
    #expect(try send("--brightness", text).brightness == expected)
  }

  @Test(arguments: ["0%", "101%", "%", "-5%", "half%", "5.5%", "+5%", " 5%"])
  func brightnessPercentOutOfRange(_ text: String) {
    #expect(
      throws: UsageError.invalidValue(
        option: "--brightness", value: text, expected: "a percentage 1% to 100%")
    ) {
      try send("--brightness", text).brightness
    }
  }

  @Test(arguments: ["0", "-3", "bright", "", "1e3", "+5", "5 "])
  func brightnessValueInvalid(_ text: String) {
    #expect(
      throws: UsageError.invalidValue(
        option: "--brightness", value: text, expected: "a whole number of at least 1, or P%")
    ) {
      try send("--brightness", text).brightness
    }
  }

  @Test func theLightGoesWhereTheFirstOfDetachDryRunGPIOAndPreviewSays() throws {
    func destination(_ words: String...) throws -> String {
      switch try SendPlan(ParsedArguments(words, command: "send")).destination {
      case .detached: "detached"
      case .dryRun(.timeline): "timeline"
      case .dryRun(.edges): "edges"
      case .dryRun(.wav(let path)): "wav " + path
      case .devices(let choices as SendChoices):
        choices.choices.map { choice in
          let kind =
            switch choice {
            case is GPIOChoice: "gpio"
            case is SerialChoice: "serial"
            default: "leds"
            }
          return ([kind] + choice.words).joined(separator: " ")
        }.joined(separator: " + ")
      case .devices: "?"
      case .preview: "preview"
      }
    }
    let line = ["--gpio", "gpiochip0:1"]
    #expect(try destination("--detach", line[0], line[1], "E") == "detached")
    #expect(try destination("--dry-run", line[0], line[1], "E") == "timeline")
    #expect(try destination("--dry-run", "--edges", "E") == "edges")
    #expect(try destination("--dry-run", "--wav", "-", line[0], line[1], "E") == "wav -")
    #expect(try destination(line[0], line[1], "E") == "gpio gpiochip0:1")
    #expect(try destination("--preview", "E") == "preview")
    #expect(try destination("--led", "a", "--led=*::capslock", "E") == "leds a *::capslock")
    #expect(try destination("E") == "leds")
    // Several kinds in lockstep.
    #expect(
      try destination("--serial", "ttyUSB0:rts", "--led", "a", line[0], line[1], "E")
        == "leds a + gpio gpiochip0:1 + serial /dev/ttyUSB0:rts")
  }

  @Test func aWarningOrAnEchoIsNotPartOfThePlanUnlessAsked() throws {
    let plain = try send("E")
    #expect(!plain.echoes && !plain.isQuiet && plain.unknownCharacters == .reject)
    let asked = try send("--echo", "-q", "--skip-unknown", "E")
    #expect(asked.echoes && asked.isQuiet && asked.unknownCharacters == .skip)
  }

  @Test func unknownOptionIsCaughtWhenTheCommandIsRead() {
    #expect(throws: UsageError.unknownOption("--speed", command: "send")) {
      try send("--speed", "5")
    }
  }
}
