import MorseCore
import MorsePlayer

/// Warns on standard error about the characters a message skipped (`--skip-unknown`): one
/// line each, at most 20 per message, then a count. As an observer of streamed input, once
/// for each kind of character, however often it comes; and once for each kind of terminal
/// control sequence dropped for its length.
final class SkippedCharacters: TransmissionObserver {
  /// The warning lines for `message`.
  static func warnings(for message: MorseMessage) -> [String] {
    var lines = message.skipped.map { "skipped \($0)" }
    if message.skippedCount > message.skipped.count {
      lines.append("skipped \(message.skippedCount - message.skipped.count) more characters")
    }
    return lines
  }

  /// Prints the warnings for `message`.
  static func warn(about message: MorseMessage) {
    warnings(for: message).forEach { Console.error("warning: \($0)") }
  }

  /// Nothing: only skipped characters are reported.
  func transmission(didBegin progress: Transmitter.Progress) {}

  /// The characters a warning was printed for: in a stream, each kind is said once.
  private var warned = Set<Character>()

  /// The kinds of control sequence a warning was printed for.
  private var warnedOverlong = Set<ControlSequenceKind>()

  /// Prints a warning for the first control sequence of its kind dropped for its length.
  func transmission(droppedOverlong kind: ControlSequenceKind, line: Int) {
    guard warnedOverlong.insert(kind).inserted else { return }
    let limit = ControlSequenceFilter.limit(of: kind)
    let end = kind.isString ? "its end or the end of its line" : "its end"
    Console.error(
      "warning: a terminal control sequence (\(kind.abbreviation)) at line \(line) ran over "
        + "\(limit) characters: dropped to \(end), nothing of it sent; any more like it are "
        + "dropped too, with no further warning")
  }

  /// Prints the warnings for the line: one for each character not skipped before.
  func transmission(willSendLine message: MorseMessage, number: Int) {
    for skipped in message.skipped where warned.insert(skipped.character).inserted {
      Console.error(
        "warning: skipped \(skipped), which has no Morse code; it is skipped wherever it "
          + "comes again, with no further warning")
    }
  }
}
