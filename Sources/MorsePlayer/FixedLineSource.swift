import LinuxSystem

/// Lines given up front (a `send TEXT` argument, tests).
public final class FixedLineSource: LineSource, @unchecked Sendable {
  private let lock = Lock()
  private var lines: IndexingIterator<[[UInt8]]>

  /// A source of these lines, in order.
  public init(_ lines: [String]) {
    self.lines = lines.map { Array($0.utf8) }.makeIterator()
  }

  /// A source of these lines of raw bytes, in order.
  public init(bytes lines: [[UInt8]]) {
    self.lines = lines.makeIterator()
  }

  /// The next of the given lines.
  public func nextLine() -> [UInt8]? { lock.withLock { lines.next() } }

  /// Drops the remaining lines.
  public func close() {
    lock.withLock { lines = [].makeIterator() }
  }
}
