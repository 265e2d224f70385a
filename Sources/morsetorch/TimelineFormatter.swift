import MorseCore
import MorsePlayer

/// Formats steps as the lines of a timeline, for `send --dry-run`.
///
/// One line per step: when it starts and how long it lasts (milliseconds from the first
/// step), on or off, and the character with its code; gaps between characters and words are
/// named as such.
final class TimelineFormatter: @unchecked Sendable {
  private let origin: MonotonicInstant
  private var end: MonotonicInstant?

  /// A formatter that counts time from `origin`.
  init(origin: MonotonicInstant) {
    self.origin = origin
  }

  /// The header line.
  static let header = "    start_ms  state  duration_ms  sending"

  /// The line for `step`, which began at `start`.
  func line(for step: MorseStep, at start: MonotonicInstant) -> String {
    end = start + step.duration
    let time = (start - origin).millisecondsText
    let state = step.isOn ? "on" : "off"
    let sending: String
    switch step.kind {
    case .dot, .dash, .elementGap: sending = "\(step.symbol.text) \(step.symbol.code)"
    case .letterGap: sending = "(letter gap)"
    case .wordGap: sending = "(word gap)"
    }
    return Self.padded(time, 12) + "  " + Self.padded(state, 5, left: true) + "  "
      + Self.padded(step.duration.millisecondsText, 11) + "  " + sending
  }

  /// A line for the idle time before `start` since the last step ended (between two lines
  /// of input), or nil if there was none.
  func gapLine(before start: MonotonicInstant, label: String = "word gap, next line") -> String? {
    guard let end, start > end else { return nil }
    return Self.padded((end - origin).millisecondsText, 12) + "  "
      + Self.padded("off", 5, left: true)
      + "  " + Self.padded((start - end).millisecondsText, 11) + "  (\(label))"
  }

  /// The closing line: the whole length of the transmission.
  func summary(end: MonotonicInstant, steps: Int) -> String {
    "total \((end - origin).millisecondsText) ms in \(steps) steps"
  }

  private static func padded(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + padding : padding + text
  }
}
