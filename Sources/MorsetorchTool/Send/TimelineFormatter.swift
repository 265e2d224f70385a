import Instants
import LinuxSystem
import MorseCore

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

  /// The line for `step`, which began at `start`. Made as bytes: a dry run of a big input
  /// prints millions of these.
  func line(for step: MorseStep, at start: MonotonicInstant) -> String {
    end = start + step.duration
    var bytes: [UInt8] = []
    bytes.reserveCapacity(64)
    Self.appendRight(start - origin, width: 12, to: &bytes)
    bytes += step.isOn ? Self.onColumn : Self.offColumn
    Self.appendRight(step.duration, width: 11, to: &bytes)
    bytes += [0x20, 0x20]
    switch step.kind {
    case .dot, .dash, .elementGap:
      bytes += step.symbol.text.utf8
      bytes.append(0x20)
      for element in step.symbol.code.elements {
        bytes.append(element == .dot ? UInt8(ascii: ".") : UInt8(ascii: "-"))
      }
    case .letterGap: bytes += "(letter gap)".utf8
    case .wordGap: bytes += "(word gap)".utf8
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The state column with the spaces around it: "  on     " and "  off    ".
  private static let onColumn = Array("  on     ".utf8)
  private static let offColumn = Array("  off    ".utf8)

  /// `duration`'s milliseconds, right-aligned in `width` columns.
  private static func appendRight(_ duration: Duration, width: Int, to bytes: inout [UInt8]) {
    var text: [UInt8] = []
    duration.appendMillisecondsText(to: &text)
    if text.count < width { bytes += repeatElement(0x20, count: width - text.count) }
    bytes += text
  }

  /// A line for the idle time before `start` since the last step ended (between two lines
  /// of input), or nil if there was none.
  func gapLine(before start: MonotonicInstant, label: String) -> String? {
    guard let end, let idle = idle(before: start) else { return nil }
    return Self.padded((end - origin).millisecondsText, 12) + "  "
      + Self.padded("off", 5, left: true)
      + "  " + Self.padded(idle.millisecondsText, 11) + "  (\(label))"
  }

  /// The idle time before `start` since the last step ended, or nil if there was none.
  func idle(before start: MonotonicInstant) -> Duration? {
    guard let end, start > end else { return nil }
    return start - end
  }

  /// The closing line: the whole length of the transmission.
  /// From a second on, in hours, minutes and seconds too: "total 270000 ms (4 min 30 s)".
  func summary(end: MonotonicInstant, steps: Int) -> String {
    let length = end - origin
    let spoken = length < .seconds(1) ? "" : " (\(Self.spoken(length)))"
    return "total \(length.millisecondsText) ms\(spoken) in \(steps) step\(steps == 1 ? "" : "s")"
  }

  /// "2.5 s", "4 min 30 s", "28 h 44 min 59.3 s": tenths of a second, only where there are.
  static func spoken(_ length: Duration) -> String {
    let tenths = Int((length / .milliseconds(100)).rounded())
    let (hours, minutes) = (tenths / 36_000, tenths / 600 % 60)
    let seconds = tenths % 600
    var parts: [String] = []
    if hours > 0 { parts.append("\(hours) h") }
    if minutes > 0 { parts.append("\(minutes) min") }
    if seconds > 0 || parts.isEmpty {
      parts.append(seconds % 10 == 0 ? "\(seconds / 10) s" : "\(seconds / 10).\(seconds % 10) s")
    }
    return parts.joined(separator: " ")
  }

  private static func padded(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + padding : padding + text
  }
}
