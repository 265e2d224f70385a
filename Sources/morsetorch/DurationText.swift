/// Durations as people write them on a command line: `500ms`, `2s`, `1.5s`, `1m`, `1h`.
enum DurationText {
  /// The duration `text` names, or nil: a number (with an optional fraction) and a unit of
  /// `ms`, `s`, `m`/`min` or `h`, from 0 up to 24 hours.
  static func parse(_ text: String) -> Duration? {
    let number = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
    let unit = text.dropFirst(number.count)
    guard !number.isEmpty, number.filter({ $0 == "." }).count <= 1, number != "." else {
      return nil
    }
    let milliseconds: Double
    switch unit {
    case "ms": milliseconds = 1
    case "s": milliseconds = 1000
    case "m", "min": milliseconds = 60_000
    case "h": milliseconds = 3_600_000
    default: return nil
    }
    guard let value = Double(number), value * milliseconds <= 86_400_000 else { return nil }
    return .microseconds(Int64((value * milliseconds * 1000).rounded()))
  }
}
