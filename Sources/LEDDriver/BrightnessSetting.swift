/// How bright "on" is.
public enum BrightnessSetting: Sendable, Hashable {
  /// `max_brightness`.
  case maximum
  /// A raw brightness, clamped to 1...max_brightness.
  case value(Int)
  /// A percentage of `max_brightness` (clamped to 0...100), rounded, at least 1.
  case percent(Int)

  /// The brightness to write for "on" on an LED whose `max_brightness` is `maximum` (≥ 1).
  public func onValue(maximum: Int) -> Int {
    switch self {
    case .maximum:
      return maximum
    case .value(let value):
      return min(max(value, 1), maximum)
    case .percent(let percent):
      let clamped = min(max(percent, 0), 100)
      // Round half up in integers (floating point would misround some exact halves), split
      // so that no product can overflow, whatever max_brightness says.
      let scaled = maximum / 100 * clamped + (maximum % 100 * clamped + 50) / 100
      return min(max(scaled, 1), maximum)
    }
  }
}
