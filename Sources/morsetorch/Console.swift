import LinuxSystem
import Synchronization

/// Writes to the terminal: results to standard output, messages to standard error.
///
/// A failed write to standard output does not end the program on the spot (a `stop` must
/// still stop every transmission it was asked to): the first failure is kept, later output is
/// dropped, and `checkOutput()` turns it into an error when the command is done, as coreutils
/// do at exit.
enum Console {
  private static let outputFailure = Mutex<Errno?>(nil)

  /// Prints `line` to standard output, unless an earlier write failed.
  static func output(_ line: String) {
    write(line + "\n")
  }

  /// Prints `text` as it is to standard output, unless an earlier write failed.
  static func write(_ text: String) {
    guard !hasOutputFailed else { return }
    do throws(Errno) {
      try StandardStreams.write(text, to: .output)
    } catch {
      outputFailure.withLock { failure in
        if failure == nil { failure = error }
      }
    }
  }

  /// Whether a write to standard output has failed (a closed pipe, a full disk).
  static var hasOutputFailed: Bool { outputFailure.withLock { $0 != nil } }

  /// Throws the first failure of standard output, if any.
  static func checkOutput() throws(OutputError) {
    if let errno = outputFailure.withLock({ $0 }) { throw OutputError(errno: errno) }
  }

  /// Prints "morsetorch: " and `message` to standard error.
  static func error(_ message: String) {
    try? StandardStreams.write("morsetorch: \(message)\n", to: .error)
  }

  /// Writes `text` as it is to standard error.
  static func writeError(_ text: String) {
    try? StandardStreams.write(text, to: .error)
  }

  /// Whether standard output is a terminal (escape sequences are understood there).
  static var isOutputTerminal: Bool { StandardStreams.isTerminal(.output) }

  /// Whether standard error is a terminal (someone is watching).
  static var isErrorTerminal: Bool { StandardStreams.isTerminal(.error) }
}
