/// A source of input lines, as raw bytes without their newline.
public protocol LineSource: AnyObject, Sendable {
  /// The next line, or nil at the end of input (or once cancelled). Blocks until a line is
  /// complete (or, from a source that reads in pieces, until a piece is).
  func nextLine() throws -> [UInt8]?
  /// The next line or piece of a line; whole lines unless the source hands out pieces.
  func nextPiece() throws -> LinePiece?
  /// Stops the source: `nextLine()` returns nil from now on, at once if it is waiting.
  func close()
}

extension LineSource {
  /// Each line whole.
  public func nextPiece() throws -> LinePiece? {
    try nextLine().map { LinePiece($0) }
  }
}
