import Instants
import LinuxSystem

/// The progress line, as text, from a known state: a pure function, tested without a
/// terminal.
///
/// `●  S ...  [#######.............]  1.2 s / 4.5 s  3/3 characters  round 2/3`; the bar and
/// remaining time for a message of known length, `round N` for `--loop`, `line N` for standard
/// input. Cut to `width - 1` columns at any width, so that it never wraps (a wrapped line
/// cannot be redrawn in place). With `color`, the light is bold yellow when on.
enum ProgressLine {
  /// The width of the bar, in characters.
  static let barWidth = 20

  /// `compact` leaves out the light and the character (a preview shows them already).
  static func render(
    _ state: ProgressState, now: MonotonicInstant, width: Int, color: Bool, compact: Bool = false
  ) -> String {
    let elapsed = state.origin.map { max(.zero, now - $0) } ?? .zero
    var parts: [String] = []
    if state.isWaitingForInput, let line = state.line {
      parts.append("waiting for input (line \(line))")
    } else if !compact {
      parts.append(state.code.isEmpty ? state.symbol : "\(state.symbol) \(state.code)")
    }
    if let total = state.total, total > .zero {
      let fraction = min(1, max(0, elapsed / total))
      let filled = Int((fraction * Double(barWidth)).rounded(.down))
      parts.append(
        "[" + String(repeating: "#", count: filled)
          + String(repeating: ".", count: barWidth - filled) + "]")
      parts.append("\(seconds(elapsed)) / \(seconds(total))")
    } else {
      parts.append(seconds(elapsed))
    }
    if let totalSymbols = state.totalSymbols {
      parts.append("\(state.symbolsBegun)/\(totalSymbols) characters")
    } else if let line = state.line, !state.isWaitingForInput {
      parts.append("line \(line)")
    }
    if state.rounds != 1 {
      parts.append(
        state.rounds == 0 ? "round \(state.round)" : "round \(state.round)/\(state.rounds)")
    }
    let columns = max(0, width - 1)
    if compact { return TerminalText.cut(parts.joined(separator: "  "), to: columns) }
    // The light first, then what fits of the rest: 2 columns show the light alone.
    let light = state.isOn ? "●" : "○"
    let line = TerminalText.cut(light + "  " + parts.joined(separator: "  "), to: columns)
    guard color, state.isOn, !line.isEmpty else { return line }
    return "\u{1B}[1;33m\(light)\u{1B}[0m" + line.dropFirst()
  }

  /// "1.2 s", or "1:05" from a minute on, "1:02:05" from an hour on.
  static func seconds(_ duration: Duration) -> String {
    let tenths = Int((duration / .milliseconds(100)).rounded(.down))
    let whole = tenths / 10
    if whole < 60 { return "\(whole).\(tenths % 10) s" }
    let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
    let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    return hours > 0
      ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
  }
}
