/// A source of input lines, as raw bytes without their newline.
public protocol LineSource: AnyObject, Sendable {
  /// The next line, or nil at the end of input (or once cancelled). Blocks until a line is
  /// complete.
  func nextLine() throws -> [UInt8]?
  /// Stops the source: `nextLine()` returns nil from now on, at once if it is waiting.
  func close()
}
