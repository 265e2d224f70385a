/// Durations as people write them on a command line: `500ms`, `2s`, `1.5s`, `1m`, `1h`.
enum DurationText {
  /// The duration `text` names, or nil: decimal digits (with an optional fraction: a point
  /// and more digits) and a unit of `ms`, `s`, `m`/`min` or `h`, from 0 up to 24 hours. No
  /// sign, exponent or space: `+1s`, `1e3ms`, `.5s` and `1.s` are nil.
  static func parse(_ text: String) -> Duration? {
    let isDigit = { (character: Character) in character.isASCII && character.isNumber }
    let whole = text.prefix(while: isDigit)
    var rest = text.dropFirst(whole.count)
    var fraction: Substring = ""
    if rest.first == "." {
      fraction = rest.dropFirst().prefix(while: isDigit)
      guard !fraction.isEmpty else { return nil }
      rest = rest.dropFirst(1 + fraction.count)
    }
    guard !whole.isEmpty else { return nil }
    let milliseconds: Double
    switch rest {
    case "ms": milliseconds = 1
    case "s": milliseconds = 1000
    case "m", "min": milliseconds = 60_000
    case "h": milliseconds = 3_600_000
    default: return nil
    }
    let number = fraction.isEmpty ? whole : text.prefix(whole.count + 1 + fraction.count)
    guard let value = Double(number), value * milliseconds <= 86_400_000 else { return nil }
    return .microseconds(Int64((value * milliseconds * 1000).rounded()))
  }
}
