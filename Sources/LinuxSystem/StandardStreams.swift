import CLinuxSystem
import Glibc

/// Standard output and standard error, written with `write(2)` directly.
public enum StandardStreams {
  /// Which stream.
  public enum Stream: Int32, Sendable {
    /// Standard output (descriptor 1).
    case output = 1
    /// Standard error (descriptor 2).
    case error = 2
  }

  /// Writes all of `text`; throws the `Errno` of a closed, full or broken stream.
  public static func write(_ text: String, to stream: Stream) throws(Errno) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = try bytes.withUnsafeBytes { buffer in
        Result { () throws(Errno) in
          try SystemCall.retryingOnInterrupt {
            Glibc.write(stream.rawValue, buffer.baseAddress, buffer.count)
          }
        }
      }.get()
      bytes = bytes.dropFirst(written)
    }
  }

  /// Makes sure descriptors 0, 1 and 2 are open before anything else is, so that no file
  /// opened later takes one of their numbers (and a message meant for a closed standard output
  /// lands in a lock file). A closed one gets /dev/null opened the other way round: writing a
  /// closed standard output or error, or reading a closed standard input, still fails with
  /// `EBADF`, just as with the closed descriptor (a closed input is not an empty one: `cat
  /// <&-` fails too).
  public static func occupyClosedDescriptors() {
    for number: Int32 in 0...2 where fcntl(number, F_GETFD) == -1 && errno == EBADF {
      let null = Glibc.open("/dev/null", number == 0 ? O_WRONLY : O_RDONLY)
      if null >= 0 && null != number {
        dup2(null, number)
        Glibc.close(null)
      }
    }
  }

  /// Whether the stream is a terminal (`isatty(3)`).
  public static func isTerminal(_ stream: Stream) -> Bool { isatty(stream.rawValue) == 1 }

  /// Whether standard input (descriptor 0) is a terminal.
  public static var isInputTerminal: Bool { isatty(0) == 1 }

  /// The width of the terminal `stream` is on, in columns; nil when it is no terminal or
  /// does not say.
  public static func columns(of stream: Stream) -> Int? {
    let columns = Int(morse_terminal_columns(stream.rawValue))
    return columns > 0 ? columns : nil
  }

  /// The height of the terminal `stream` is on, in rows; nil when it is no terminal or does
  /// not say.
  public static func rows(of stream: Stream) -> Int? {
    let rows = Int(morse_terminal_rows(stream.rawValue))
    return rows > 0 ? rows : nil
  }

  /// Makes `print` flush at every line (`setvbuf(stdout, NULL, _IOLBF, 0)`), into a pipe or a
  /// file too, for output that is read while the program runs.
  public static func lineBufferPrint() { morse_line_buffer_stdout() }

  /// `dup2(2)` of /dev/null over standard output and error (a background copy leaving the
  /// pipes its parent stops reading).
  public static func silence() {
    let null = Glibc.open("/dev/null", O_RDWR | O_CLOEXEC)
    guard null >= 0 else { return }
    for target in [Stream.output, .error] { _ = dup2(null, target.rawValue) }
    Glibc.close(null)
  }
}
