import Instants

/// The plain text form of edges that `receive --edges` reads and `send --dry-run --edges`
/// writes: one edge per line, `SECONDS LEVEL`, the time a decimal number of seconds from any
/// origin (strictly increasing), the level `1` (on, key down) or `0`. Blank lines and lines
/// starting with `#` are ignored.
public enum EdgeText {
  /// Why a line is not an edge.
  public struct Problem: Error, Hashable, CustomStringConvertible {
    /// The line's number (1-based).
    public let line: Int
    /// What is wrong with it.
    public let reason: String

    public var description: String { "edge line \(line): \(reason)" }
  }

  /// The longest line, in bytes after its leading spaces and tabs, that `EdgeTextReader`
  /// keeps to read as an edge: a `SECONDS LEVEL` line takes a few dozen. (A comment may be
  /// any length: it is skipped, not kept.)
  public static let lineLimit = 4096

  /// The problem of line `number`, which goes on past `lineLimit` bytes from `start`.
  static func tooLong(_ start: [UInt8], number: Int) -> Problem {
    let text = String(decoding: start.prefix(64), as: UTF8.self)
    return Problem(
      line: number,
      reason: "longer than \(lineLimit) bytes, as no SECONDS LEVEL line is (found \(shown(text)))")
  }

  /// Reads line `number` (its text without the line break); nil for a blank line or a
  /// comment. `previous` is the edge before, which this one must come after.
  public static func parse(_ text: Substring, number: Int, after previous: MorseEdge?)
    throws(Problem) -> MorseEdge?
  {
    let trimmed = text.drop { $0 == " " || $0 == "\t" }
    if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
    let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
    guard words.count == 2 else {
      throw Problem(line: number, reason: "expected SECONDS LEVEL, found \(shown(trimmed))")
    }
    guard let time = seconds(words[0]) else {
      throw Problem(line: number, reason: "\(shown(words[0])) is not a time in seconds")
    }
    guard words[1] == "0" || words[1] == "1" else {
      throw Problem(line: number, reason: "the level \(shown(words[1])) is not 0 or 1")
    }
    if let previous, .origin + time <= previous.time {
      throw Problem(
        line: number,
        reason: "\(words[0]) s does not come after the edge before it (times must increase)")
    }
    return MorseEdge(time: .origin + time, isOn: words[1] == "1")
  }

  /// The edge as a line (without its line break): microseconds, as `12.345678 1`.
  public static func format(_ edge: MorseEdge) -> String {
    let microseconds = edge.time.sinceOrigin / .microseconds(1)
    let whole = Int(microseconds.rounded(.down))
    let fraction = String(whole % 1_000_000)
    let padded = String(repeating: "0", count: 6 - fraction.count) + fraction
    return "\(whole / 1_000_000).\(padded) \(edge.isOn ? 1 : 0)"
  }

  /// A decimal number of seconds, `12`, `12.5`, `.25`, `0.000250`: ASCII digits only, no
  /// sign, no exponent; digits past the nanosecond are dropped.
  static func seconds(_ text: Substring) -> Duration? {
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let wholeText = parts[0]
    let fractionText = parts.count == 2 ? parts[1] : ""
    let isDigit = { (character: Character) in ("0"..."9").contains(character) }
    guard wholeText.allSatisfy(isDigit), fractionText.allSatisfy(isDigit),
      !(wholeText.isEmpty && fractionText.isEmpty), wholeText.count <= 12,
      let whole = Int(wholeText.isEmpty ? "0" : wholeText), whole < 1 << 32
    else { return nil }
    let nine = fractionText.prefix(9)
    let nanoseconds = Int(nine + String(repeating: "0", count: 9 - nine.count)) ?? 0
    return .seconds(whole) + .nanoseconds(nanoseconds)
  }

  private static func shown(_ text: some StringProtocol) -> String {
    let cut = text.count > 40 ? String(text.prefix(40)) + "…" : String(text)
    return cut.debugDescription
  }
}
