import Synchronization

/// Lines given up front (a `send TEXT` argument, tests).
public final class FixedLineSource: LineSource, Sendable {
  private let lines: Mutex<IndexingIterator<[[UInt8]]>>

  /// A source of these lines, in order.
  public init(_ lines: [String]) {
    self.lines = Mutex(lines.map { Array($0.utf8) }.makeIterator())
  }

  /// A source of these lines of raw bytes, in order.
  public init(bytes lines: [[UInt8]]) {
    self.lines = Mutex(lines.makeIterator())
  }

  /// The next of the given lines.
  public func nextLine() -> [UInt8]? { lines.withLock { $0.next() } }

  /// Drops the remaining lines.
  public func close() {
    lines.withLock { $0 = [].makeIterator() }
  }
}
