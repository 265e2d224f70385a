import MorseCore
import MorsePlayer

/// Warns on standard error about the characters a message skipped (`--skip-unknown`): one
/// line each, at most 20 per message, then a count. As an observer, it warns about each line
/// of streamed input.
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

  /// Prints the warnings for the line.
  func transmission(willSendLine message: MorseMessage, number: Int) {
    Self.warn(about: message)
  }
}
