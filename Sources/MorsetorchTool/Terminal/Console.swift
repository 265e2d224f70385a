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
  /// What to do when standard output first fails (stop what only writes to it).
  private static let failureAction = Mutex<(@Sendable (OutputError) -> Void)?>(nil)

  /// Runs `action` (on the writing thread) when a write to standard output first fails, or
  /// at once if one has: a `--echo` or `--preview` that nobody reads any more stops.
  static func whenOutputFails(_ action: @escaping @Sendable (OutputError) -> Void) {
    failureAction.withLock { $0 = action }
    if let errno = outputFailure.withLock({ $0 }) { action(OutputError(errno: errno)) }
  }

  /// Prints `line` to standard output, unless an earlier write failed.
  static func output(_ line: String) {
    write(line + "\n")
  }

  /// Output waiting to be written, when buffered (`bufferOutput()`); nil: written at once.
  private static let outputBuffer = Mutex<String?>(nil)
  /// How much buffered output is written in one go.
  private static let bufferLimit = 64 * 1024

  /// From now on, standard output is written in blocks (`encode` and `decode` turning a big
  /// file): `flushOutput()` writes what is waiting, as do `checkOutput()` and a full buffer.
  static func bufferOutput() {
    outputBuffer.withLock { if $0 == nil { $0 = "" } }
  }

  /// Prints `text` as it is to standard output, unless an earlier write failed.
  static func write(_ text: String) {
    guard !hasOutputFailed else { return }
    let isFull = outputBuffer.withLock { buffer -> Bool? in
      guard buffer != nil else { return nil }
      buffer?.append(text)
      return (buffer?.utf8.count ?? 0) >= bufferLimit
    }
    switch isFull {
    case nil: writeNow(text)
    case true?: flushOutput()
    case false?: break
    }
  }

  /// Writes the buffered output, if any.
  static func flushOutput() {
    let text = outputBuffer.withLock { buffer -> String in
      defer { if buffer != nil { buffer = "" } }
      return buffer ?? ""
    }
    if !text.isEmpty, !hasOutputFailed { writeNow(text) }
  }

  private static func writeNow(_ text: String) {
    do throws(Errno) {
      try StandardStreams.write(text, to: .output)
    } catch {
      let isFirst = outputFailure.withLock { failure in
        defer { if failure == nil { failure = error } }
        return failure == nil
      }
      if isFirst, let action = failureAction.withLock({ $0 }) { action(OutputError(errno: error)) }
    }
  }

  /// Whether a write to standard output has failed (a closed pipe, a full disk).
  static var hasOutputFailed: Bool { outputFailure.withLock { $0 != nil } }

  /// Writes what is buffered, then throws the first failure of standard output, if any.
  static func checkOutput() throws(OutputError) {
    flushOutput()
    if let errno = outputFailure.withLock({ $0 }) { throw OutputError(errno: errno) }
  }

  /// The writer of standard error; nil (direct writes) if no thread could be had for it.
  private static let errorWriter: StreamWriter? = try? StreamWriter()

  private static let quiet = Mutex(false)

  /// `--quiet`: notes are not printed (errors and warnings still are).
  static var isQuiet: Bool {
    get { quiet.withLock { $0 } }
    set { quiet.withLock { $0 = newValue } }
  }

  private static let systemLog = Mutex<SystemLog?>(nil)

  /// From now on, errors and notes go to the system log (the journal) instead of standard
  /// error: a detached sender has no terminal left.
  static func useSystemLog(_ log: SystemLog) {
    systemLog.withLock { $0 = log }
  }

  /// Prints "morsetorch: " and `message` to standard error, unless `--quiet`: something done
  /// as asked, or chosen, that the user may like to hear of (the LED chosen, a leftover
  /// restored, what stopped a transmission).
  static func note(_ message: String) {
    guard !isQuiet else { return }
    if let log = systemLog.withLock({ $0 }) {
      log.log(styled(message), severity: .notice)
      return
    }
    error(message)
  }

  /// The one style of every message: `message` starting in lower case, as GNU tools write
  /// them ("there is no LED…", "warning: dropped…"); a name such as LED, GPIO or a path is
  /// kept as it is. Lines after the first (advice) are full sentences, and stay so.
  static func styled(_ message: String) -> String {
    // Whatever a message quotes from outside, no control of it reaches the terminal or the
    // journal (the quoting sites show its line breaks too: `\(shown:)`).
    var text = Substring(ShownText.escaped(message, limit: .max, keepingLineBreaks: true))
    while text.hasPrefix(prefix) { text = text.dropFirst(prefix.count) }
    let warning = "warning: "
    let lead = text.hasPrefix(warning) ? warning : ""
    let rest = text.dropFirst(lead.count)
    guard let first = rest.first, first.isUppercase,
      rest.dropFirst().first?.isLowercase == true
    else { return String(text) }
    return lead + first.lowercased() + String(rest.dropFirst())
  }

  /// What starts every line morsetorch writes to standard error: its name, once.
  static let prefix = "morsetorch: "

  /// `message` as a line of standard error: the prefix once, then `styled(message)`; for a
  /// terminal `columns` wide, broken at spaces to fit, never inside a name
  /// (`TerminalText.filled`).
  static func errorLine(_ message: String, columns: Int? = nil) -> String {
    let line = prefix + styled(message)
    return (columns.map { TerminalText.filled(line, columns: $0) } ?? line) + "\n"
  }

  /// Prints "morsetorch: " and `message` to standard error, without ever waiting for it (or,
  /// detached, logs it as an error).
  static func error(_ message: String) {
    if let log = systemLog.withLock({ $0 }) {
      // The journal names the sender itself (morsetorch[PID]:): no prefix of our own.
      log.log(styled(message), severity: .error)
      return
    }
    writeError(errorLine(message, columns: StandardStreams.columns(of: .error)))
  }

  /// Writes `text` as it is to standard error, without ever waiting for it.
  static func writeError(_ text: String) {
    guard let errorWriter else {
      try? StandardStreams.write(text, to: .error)
      return
    }
    errorWriter.write(text)
  }

  /// Draws `frame` as the progress line on standard error, replacing the one before; never
  /// waits. Only when standard error is a terminal (the caller checks).
  static func showFrame(_ frame: @escaping StreamWriter.Frame) {
    errorWriter?.showFrame(frame)
  }

  /// Erases the progress line and waits (a second at most) until it is gone.
  static func clearFrame() {
    errorWriter?.clearFrame()
    flushErrors()
  }

  /// Before exit: lets the messages still queued reach standard error (a second at most).
  static func flushErrors() {
    errorWriter?.flush(timeout: .seconds(1))
  }

  /// Whether standard output is a terminal (escape sequences are understood there).
  static var isOutputTerminal: Bool { StandardStreams.isTerminal(.output) }

  /// Whether standard error is a terminal (someone is watching).
  static var isErrorTerminal: Bool { StandardStreams.isTerminal(.error) }

  /// Whether standard input is a terminal: someone types the text.
  static var isInputTerminal: Bool { StandardStreams.isInputTerminal }
}
