/// The durations of ITU Morse: dot 1 unit, dash 3, element gap 1, letter gap 3, word gap 7.
///
/// The unit is 1200 / WPM milliseconds (the PARIS standard: "PARIS " is 50 units). With
/// Farnsworth timing (Jon Bloom, QEX, 1990) characters keep the speed of `wordsPerMinute`
/// while the letter and word gaps stretch so that the overall speed is the Farnsworth WPM.
public struct MorseTiming: Sendable, Hashable {
  /// The accepted range of character and Farnsworth speeds, in words per minute.
  public static let wordsPerMinuteRange: ClosedRange<Int> = 1...200
  /// The accepted range of the unit, in milliseconds.
  public static let unitMillisecondsRange: ClosedRange<Int> = 1...10_000
  /// The default speed, 12 WPM: a 100 ms dot.
  public static let standard = MorseTiming(unit: .milliseconds(100))

  /// The length of a dot and of the gap between the elements of one character.
  public let unit: Duration
  /// The gap between two characters of a word (3 units without Farnsworth).
  public let letterGap: Duration
  /// The gap between two words (7 units without Farnsworth).
  public let wordGap: Duration

  /// The length of a dash.
  public var dash: Duration { unit * 3 }
  /// The length of a dot.
  public var dot: Duration { unit }

  /// How late a step may start before the rest of the schedule is moved by its lateness
  /// (a stall) rather than made up by the steps after it (each shortened by at most a quarter
  /// of its length): two units, and never under 2 ms, so that at very short units the
  /// scheduling noise of a busy machine is made up (the timeline stays where it was) instead
  /// of each hiccup shifting the rest for good.
  public var lateTolerance: Duration { max(unit * 2, .milliseconds(2)) }

  /// Timing with the given unit and the standard 3- and 7-unit gaps.
  public init(unit: Duration) {
    self.unit = unit
    self.letterGap = unit * 3
    self.wordGap = unit * 7
  }

  /// Timing at `wordsPerMinute`, with gaps stretched to `farnsworth` WPM when it is given.
  ///
  /// Throws for a speed outside `wordsPerMinuteRange`, and when the Farnsworth speed is above
  /// the character speed (it can only slow the message down).
  public init(wordsPerMinute: Int, farnsworth: Int? = nil) throws(TimingError) {
    guard Self.wordsPerMinuteRange.contains(wordsPerMinute) else {
      throw .wordsPerMinuteOutOfRange(wordsPerMinute)
    }
    let unit = Duration.milliseconds(1200) / wordsPerMinute
    guard let farnsworth else {
      self.init(unit: unit)
      return
    }
    guard Self.wordsPerMinuteRange.contains(farnsworth) else {
      throw .farnsworthOutOfRange(farnsworth)
    }
    guard farnsworth <= wordsPerMinute else {
      throw .farnsworthFasterThanCharacters(farnsworth: farnsworth, wordsPerMinute: wordsPerMinute)
    }
    self.init(unit: unit, characterSpeed: wordsPerMinute, overallSpeed: farnsworth)
  }

  /// Timing with a unit given in whole milliseconds.
  public init(unitMilliseconds: Int) throws(TimingError) {
    guard Self.unitMillisecondsRange.contains(unitMilliseconds) else {
      throw .unitOutOfRange(unitMilliseconds)
    }
    self.init(unit: .milliseconds(unitMilliseconds))
  }

  private init(unit: Duration, characterSpeed c: Int, overallSpeed s: Int) {
    // Bloom: one "PARIS " takes 60/s seconds; its 31 units of characters take 31 * 1.2/c
    // seconds at the character speed, and the rest is spread over its 19 units of spacing
    // (4 letter gaps of 3 and one word gap of 7): t_a = (60c - 37.2s) / (s c) seconds.
    // In milliseconds, exactly: (60000c - 37200s) / (s c).
    let spacing = Duration.milliseconds(60_000 * c - 37_200 * s) / (s * c)
    self.unit = unit
    self.letterGap = spacing * 3 / 19
    self.wordGap = spacing * 7 / 19
  }
}
