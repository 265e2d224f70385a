import LinuxSystem

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
  private let file: FileDescriptor
  private let itemReady = ConditionVariable()
  private let spaceFreed = ConditionVariable()

  /// Starts reading `file` (standard input by default) on a new thread; throws if no thread
  /// can be had.
  public init(reading file: consuming FileDescriptor = .standardInput, capacity: Int = 8)
    throws(Errno)
  {
    self.file = file
    self.capacity = capacity
    try Threads.start { [self] in readLoop() }
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
          Result { () throws(Errno) in try file.read(into: bytes) }
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
