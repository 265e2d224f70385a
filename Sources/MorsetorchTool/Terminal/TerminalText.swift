import LinuxSystem

/// Text from elsewhere (another user's transmission, an LED's name) made safe to print.
enum TerminalText {
  /// `text` with every character that could act on a terminal shown instead
  /// (`ShownText.escaped`); cut to `limit` characters with "…".
  static func escaped(_ text: String, limit: Int = 200) -> String {
    ShownText.escaped(text, limit: limit)
  }

  /// A duration of `seconds` as "42 s" or "3 min 5 s"; far-off values (a record's clock from
  /// another machine, a forged one) are clamped, never a crash.
  static func elapsed(seconds: Double) -> String {
    guard seconds.isFinite, seconds > 0 else { return "0 s" }
    let whole = Int(min(seconds, 1e12))
    if whole < 60 { return "\(whole) s" }
    if whole < 86_400 { return "\(whole / 60) min \(whole % 60) s" }
    return "\(whole / 86_400) d \(whole % 86_400 / 3600) h"
  }

  /// `text` in at most `columns` characters, an ellipsis marking a cut where there is room
  /// for one besides a character (none in 1 column: the first character is worth more).
  static func cut(_ text: String, to columns: Int) -> String {
    guard text.count > columns else { return text }
    guard columns > 1 else { return String(text.prefix(max(0, columns))) }
    return String(text.prefix(columns - 1)) + "…"
  }

  /// Below this width a message is left to the terminal to wrap: filled, it would be a word
  /// or two a line.
  static let narrowestFill = 20

  /// Each line of `text` that does not fit in `columns - 1` columns broken at its spaces,
  /// never inside a word: a word longer than a line (a path, a long LED name) starts a line
  /// of its own, whole, for the terminal to wrap. Lines that fit are kept as they are.
  static func filled(_ text: String, columns: Int) -> String {
    guard columns >= narrowestFill else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.count < columns
        ? String(line)
        : HelpLayout.lines(HelpLayout.words(line), indent: 0, first: 0, width: columns - 1)
          .joined(separator: "\n")
    }.joined(separator: "\n")
  }
}
