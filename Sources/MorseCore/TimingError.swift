/// A speed or unit outside the accepted ranges.
public enum TimingError: Error, Hashable, CustomStringConvertible {
  /// A character speed outside `MorseTiming.wordsPerMinuteRange`.
  case wordsPerMinuteOutOfRange(Int)
  /// A Farnsworth speed outside `MorseTiming.wordsPerMinuteRange`.
  case farnsworthOutOfRange(Int)
  /// A Farnsworth speed above the character speed.
  case farnsworthFasterThanCharacters(farnsworth: Int, wordsPerMinute: Int)
  /// A unit outside `MorseTiming.unitMillisecondsRange`.
  case unitOutOfRange(Int)

  /// What went wrong and what to use instead.
  public var description: String {
    let speeds = MorseTiming.wordsPerMinuteRange
    switch self {
    case .wordsPerMinuteOutOfRange(let value):
      return
        "a speed of \(value) WPM is out of range: use \(speeds.lowerBound) to \(speeds.upperBound)"
    case .farnsworthOutOfRange(let value):
      return "a Farnsworth speed of \(value) WPM is out of range: use \(speeds.lowerBound) to "
        + "\(speeds.upperBound)"
    case .farnsworthFasterThanCharacters(let farnsworth, let wordsPerMinute):
      return "a Farnsworth speed of \(farnsworth) WPM is faster than the character speed of "
        + "\(wordsPerMinute) WPM: "
        + "Farnsworth timing only stretches the gaps, so use a value up to \(wordsPerMinute)"
    case .unitOutOfRange(let value):
      let range = MorseTiming.unitMillisecondsRange
      return
        "a unit of \(value) ms is out of range: use \(range.lowerBound) to \(range.upperBound) ms"
    }
  }
}
