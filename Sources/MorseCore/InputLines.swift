/// A source of input lines, as raw bytes without their newline.
public protocol LineSource: AnyObject, Sendable {
  /// The next line, or nil at the end of input (or once cancelled). Blocks until a line is
  /// complete.
  func nextLine() throws -> [UInt8]?
  /// Stops the source: `nextLine()` returns nil from now on, at once if it is waiting.
  func close()
}

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

/// Reads lines from a file descriptor on a thread of its own, a few lines ahead.
///
/// Streaming: a line is handed over as soon as its newline arrives (`journalctl -f` works),
/// while the reader waits for more. At most `capacity` lines wait in the queue, so memory is
/// bounded by the longest line, not by the length of the input.
public final class StreamLineSource: LineSource, @unchecked Sendable {
  /// What the reader thread hands over.
  private enum Item {
    case line([UInt8])
    case end
    case failure(any Error)
  }

  private let lock = Lock()
  private var queue: [Item] = []
  private var isClosed = false
  private let capacity: Int
  private let fileDescriptor: Int32
  private let itemReady = ConditionVariable()
  private let spaceFreed = ConditionVariable()

  /// Starts reading `fileDescriptor` (standard input by default) on a new thread.
  public init(fileDescriptor: Int32 = 0, capacity: Int = 8) {
    self.fileDescriptor = fileDescriptor
    self.capacity = capacity
    startThread { [self] in readLoop() }
  }

  /// Stops handing out lines: `nextLine()` returns nil from now on, and wakes if waiting.
  public func close() {
    lock.withLock {
      isClosed = true
      itemReady.broadcast()
      spaceFreed.broadcast()
    }
  }

  /// The next complete line; nil at end of input or after `close()`.
  public func nextLine() throws -> [UInt8]? {
    let item: Item = lock.withLock {
      while queue.isEmpty && !isClosed { itemReady.wait(lock) }
      if isClosed { return .end }
      let first = queue.removeFirst()
      spaceFreed.signal()
      return first
    }
    switch item {
    case .line(let bytes): return bytes
    case .end: return nil
    case .failure(let error): throw error
    }
  }

  private func hand(_ item: Item) -> Bool {
    lock.withLock {
      while queue.count >= capacity && !isClosed { spaceFreed.wait(lock) }
      guard !isClosed else { return false }
      queue.append(item)
      itemReady.signal()
      return true
    }
  }

  private func readLoop() {
    var line: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count: Int
      do throws(Errno) {
        count = try buffer.withUnsafeMutableBytes { bytes in
          Result { () throws(Errno) in try Syscalls.read(fileDescriptor, into: bytes) }
        }.get()
      } catch {
        _ = hand(.failure(InputError.readFailed(error)))
        return
      }
      if count == 0 {
        if !line.isEmpty { guard hand(.line(line)) else { return } }
        _ = hand(.end)
        return
      }
      var start = 0
      for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
        line.append(contentsOf: buffer[start..<index])
        start = index + 1
        guard hand(.line(line)) else { return }
        line.removeAll(keepingCapacity: true)
      }
      line.append(contentsOf: buffer[start..<count])
    }
  }
}

/// Standard input could not be read.
public enum InputError: Error, Hashable, CustomStringConvertible {
  /// `read(2)` on standard input failed.
  case readFailed(Errno)

  /// What failed, with the system's words for it.
  public var description: String {
    switch self {
    case .readFailed(let errno): return "cannot read standard input: \(errno)"
    }
  }
}
