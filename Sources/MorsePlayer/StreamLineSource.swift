import LinuxSystem
import MorseCore

/// Reads lines from a file descriptor on a thread of its own, a few lines ahead.
///
/// Streaming: a line is handed over as soon as its newline arrives (`journalctl -f` works),
/// while the reader waits for more. A line longer than `pieceLimit` bytes is handed over in
/// pieces, cut after its last space or tab within the limit (else at a character boundary),
/// so a line with no newline (`tr -d '\n'`) starts at once and memory stays flat: at most
/// `capacity` pieces wait, whatever the input.
public final class StreamLineSource: LineSource, Sendable {
  /// What the reader thread hands over.
  private enum Item {
    case piece(LinePiece)
    case end
    case failure(any Error)
  }

  /// What waits between the threads; the reader waits for room, the consumer for an item.
  private struct Queue {
    var items: [Item] = []
    var isClosed = false
  }

  private let queue = Monitor(Queue())
  private let capacity: Int
  private let pieceLimit: Int
  private let file: FileDescriptor
  /// Fired by `close()`: ends the reader's wait for input (a silent pipe, a FIFO no one writes).
  private let stopped = OneShotEvent()

  /// Starts reading `file` (standard input by default) on a new thread; throws if no thread
  /// can be had.
  public init(
    reading file: consuming FileDescriptor = .standardInput, capacity: Int = 8,
    pieceLimit: Int = 4096
  ) throws(Errno) {
    self.file = file
    self.capacity = capacity
    self.pieceLimit = max(4, pieceLimit)
    try Threads.start { [self] in readLoop() }
  }

  /// Stops handing out lines: `nextLine()` returns nil from now on, and wakes if waiting; the
  /// reader thread stops waiting for input.
  public func close() {
    stopped.fire()
    queue.withLock { queue in
      queue.isClosed = true
      self.queue.wakeWaiters()
    }
  }

  /// The next complete line, or piece of a long one; nil at end of input or after `close()`.
  public func nextLine() throws -> [UInt8]? {
    try nextPiece()?.bytes
  }

  /// Whether `nextPiece()` would return at once (a piece is queued, or the input ended).
  public var hasPieceReady: Bool {
    queue.withLock { !$0.items.isEmpty || $0.isClosed }
  }

  /// The next complete line or piece; nil at end of input or after `close()`.
  public func nextPiece() throws -> LinePiece? {
    let item: Item = queue.wait(until: { !$0.items.isEmpty || $0.isClosed }) { queue in
      if queue.isClosed { return .end }
      let first = queue.items.removeFirst()
      // The reader is woken when half the room is free, not for every line: it then reads
      // on, rather than the two threads taking turns line by line.
      if queue.items.count <= capacity / 2 { self.queue.wakeWaiters() }
      return first
    }
    switch item {
    case .piece(let piece): return piece
    case .end: return nil
    case .failure(let error): throw error
    }
  }

  private func hand(_ item: Item) -> Bool {
    queue.wait(until: { $0.items.count < capacity || $0.isClosed }) { queue in
      guard !queue.isClosed else { return false }
      queue.items.append(item)
      self.queue.wakeWaiters()
      return true
    }
  }

  private func readLoop() {
    var line: [UInt8] = []
    var isContinuing = false
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      // Not a bare read: one that waits on a silent pipe would outlive `close()`. A FIFO
      // opened non-blocking, before any writer, reads as ended at once but polls as not ready.
      guard file.waitUntilReadable(unlessFired: stopped) else { return }
      let count: Int
      do throws(Errno) {
        count = try buffer.withUnsafeMutableBytes { bytes in
          Result { () throws(Errno) in try file.read(into: bytes) }
        }.get()
      } catch where error == .wouldBlock {
        continue  // a non-blocking descriptor whose input another reader took first
      } catch {
        _ = hand(.failure(InputError.readFailed(error)))
        return
      }
      if count == 0 {
        if !line.isEmpty || isContinuing {
          guard hand(.piece(LinePiece(line, continuesLine: isContinuing))) else { return }
        }
        _ = hand(.end)
        return
      }
      var start = 0
      for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
        line.append(contentsOf: buffer[start..<index])
        start = index + 1
        guard hand(.piece(LinePiece(line, continuesLine: isContinuing))) else { return }
        line.removeAll(keepingCapacity: true)
        isContinuing = false
      }
      line.append(contentsOf: buffer[start..<count])
      while line.count > pieceLimit {
        let cut = Self.cut(line, limit: pieceLimit)
        let piece = LinePiece(
          Array(line[..<cut]), continuesLine: isContinuing, endsLine: false,
          breaksWord: !LinePiece.isSpace(line[cut - 1]) && !LinePiece.isSpace(line[cut]))
        guard hand(.piece(piece)) else {
          return
        }
        line.removeFirst(cut)
        isContinuing = true
      }
    }
  }

  /// Where to cut a piece of at most `limit` bytes off `line`: after the last space or tab
  /// in it, else inside the word: before a prosign (`<SK>`) that the limit would split, else
  /// before the UTF-8 sequence that it would split.
  static func cut(_ line: [UInt8], limit: Int) -> Int {
    if let space = line[..<limit].lastIndex(where: LinePiece.isSpace), space > 0 {
      return space + 1
    }
    let recent = line[max(0, limit - longestProsign)..<limit]
    if let open = recent.lastIndex(of: UInt8(ascii: "<")), open > 0,
      !recent[open...].contains(UInt8(ascii: ">"))
    {
      return open
    }
    var cut = limit
    while cut > 1 && (0x80...0xBF).contains(line[cut]) { cut -= 1 }
    return cut
  }

  /// The bytes of the longest prosign with its brackets: a `<` further from the cut than
  /// this opens none that the cut splits.
  private static let longestProsign =
    (MorseAlphabet.prosignEntries.map(\.name.utf8.count).max() ?? 0) + 2
}
