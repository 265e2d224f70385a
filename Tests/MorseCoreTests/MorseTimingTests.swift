import MorseCore
import Testing

@Suite struct MorseTimingTests {
  @Test func twelveWordsPerMinuteIsAHundredMillisecondDot() throws {
    let timing = try MorseTiming(wordsPerMinute: 12)
    #expect(timing.unit == .milliseconds(100))
    #expect(timing.dash == .milliseconds(300))
    #expect(timing.letterGap == .milliseconds(300))
    #expect(timing.wordGap == .milliseconds(700))
    #expect(timing == MorseTiming.standard)
  }

  @Test(arguments: [1, 5, 12, 13, 20, 25, 60, 200])
  func unitIsTwelveHundredOverWordsPerMinute(wordsPerMinute: Int) throws {
    let timing = try MorseTiming(wordsPerMinute: wordsPerMinute)
    // PARIS: 50 units make one word, so a minute holds exactly `wordsPerMinute` words.
    // (Exact to the attosecond where 1200 divides evenly, within a nanosecond elsewhere.)
    let minute = timing.unit * 50 * wordsPerMinute
    #expect(abs((minute - .seconds(60)) / .nanoseconds(1)) < 1)
    #expect(timing.letterGap == timing.unit * 3)
    #expect(timing.wordGap == timing.unit * 7)
  }

  @Test func unitInMilliseconds() throws {
    #expect(try MorseTiming(unitMilliseconds: 60).unit == .milliseconds(60))
    #expect(try MorseTiming(unitMilliseconds: 60).wordGap == .milliseconds(420))
  }

  @Test func farnsworthStretchesOnlyTheGaps() throws {
    // Bloom (QEX 1990): c = 18, s = 5: t_a = (60*18 - 37.2*5) / (5*18) s = 9.9333... s.
    let timing = try MorseTiming(wordsPerMinute: 18, farnsworth: 5)
    let plain = try MorseTiming(wordsPerMinute: 18)
    #expect(timing.unit == plain.unit)
    let spacing = Duration.milliseconds(894_000) / 90
    #expect(timing.letterGap == spacing * 3 / 19)
    #expect(timing.wordGap == spacing * 7 / 19)
    // One "PARIS " (31 units of characters + 4 letter gaps + 1 word gap) takes 60/s s.
    let paris = timing.unit * 31 + timing.letterGap * 4 + timing.wordGap
    #expect(abs((paris - .seconds(12)) / .nanoseconds(1)) < 1)
  }

  @Test func farnsworthAtTheCharacterSpeedChangesNothing() throws {
    let plain = try MorseTiming(wordsPerMinute: 20)
    #expect(try MorseTiming(wordsPerMinute: 20, farnsworth: 20) == plain)
  }

  @Test func outOfRangeValuesAreErrors() {
    #expect(throws: TimingError.wordsPerMinuteOutOfRange(0)) { try MorseTiming(wordsPerMinute: 0) }
    #expect(throws: TimingError.wordsPerMinuteOutOfRange(201)) {
      try MorseTiming(wordsPerMinute: 201)
    }
    #expect(throws: TimingError.unitOutOfRange(0)) { try MorseTiming(unitMilliseconds: 0) }
    #expect(throws: TimingError.farnsworthFasterThanCharacters(farnsworth: 25, wordsPerMinute: 20))
    {
      try MorseTiming(wordsPerMinute: 20, farnsworth: 25)
    }
    #expect(throws: TimingError.farnsworthOutOfRange(0)) {
      try MorseTiming(wordsPerMinute: 20, farnsworth: 0)
    }
  }

  @Test func errorMessagesNameTheValueAndTheRangeButNoOption() {
    #expect(TimingError.wordsPerMinuteOutOfRange(0).description.contains("0 WPM"))
    #expect(TimingError.wordsPerMinuteOutOfRange(0).description.contains("1 to 200"))
    #expect(TimingError.unitOutOfRange(0).description.contains("0 ms"))
    #expect(!TimingError.unitOutOfRange(0).description.contains("--"))
  }

  @Test func millisecondsText() {
    #expect(Duration.milliseconds(100).millisecondsText == "100")
    #expect((Duration.milliseconds(1200) / 13).millisecondsText == "92.308")
    #expect(Duration.microseconds(1500).millisecondsText == "1.5")
    #expect(Duration.zero.millisecondsText == "0")
    #expect(Duration.microseconds(50).millisecondsText == "0.05")
    #expect(Duration.microseconds(1).millisecondsText == "0.001")
    #expect(Duration.microseconds(-1500).millisecondsText == "-1.5")
    #expect(Duration.seconds(3600).millisecondsText == "3600000")
    #expect(Duration.nanoseconds(999_999_600).millisecondsText == "1000")
    #expect(Duration.nanoseconds(1_000_400).millisecondsText == "1")
  }

  @Test(arguments: [(1, 2.0), (3, 6.0), (4, 8.0), (5, 10.0), (60, 120.0), (100, 200.0)])
  func aStepIsAStallAfterTwoUnitsButNeverUnderTwoMilliseconds(unit: Int, tolerance: Double) {
    let timing = MorseTiming(unit: .milliseconds(unit))
    #expect(timing.lateTolerance == .microseconds(Int(tolerance * 1000)))
  }

  /// The text as it was made before the byte version: the reference for random durations.
  private func referenceText(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    let rounded = (attoseconds / 1_000_000) % 1_000_000 >= 500_000 ? microseconds + 1 : microseconds
    let sign = rounded < 0 ? "-" : ""
    let whole = rounded.magnitude / 1000
    var fraction = String(rounded.magnitude % 1000)
    guard fraction != "0" else { return "\(sign)\(whole)" }
    fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(sign)\(whole).\(fraction)"
  }

  @Test func millisecondsTextMatchesTheReferenceOnRandomDurations() {
    for _ in 0..<10_000 {
      let duration = Duration.nanoseconds(Int64.random(in: 0...10_000_000_000_000))
      #expect(duration.millisecondsText == referenceText(duration), "\(duration)")
    }
  }
}
