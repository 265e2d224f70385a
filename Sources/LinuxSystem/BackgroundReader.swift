import Synchronization

/// Reads a descriptor to its end on a thread of its own, so that whoever writes it never
/// blocks on a full pipe while this process waits for something else.
public final class BackgroundReader: Sendable {
  private let content = Mutex<[UInt8]>([])
  private let reader = WorkerThread()

  /// Starts reading `file` (which it owns from now on) to its end.
  public init(_ file: consuming FileDescriptor) throws(Errno) {
    let box = Box(file)
    try reader.start { [self] in
      var chunk = [UInt8](repeating: 0, count: 16_384)
      while true {
        let count =
          (try? chunk.withUnsafeMutableBytes { buffer in try box.file.read(into: buffer) }) ?? 0
        if count == 0 { break }
        content.withLock { $0.append(contentsOf: chunk[..<count]) }
      }
    }
  }

  /// What has been read so far, without waiting.
  public var readSoFar: [UInt8] { content.withLock { $0 } }

  /// Waits for the end of the input; everything that was read.
  public func result() -> [UInt8] {
    reader.wait()
    return content.withLock { $0 }
  }

  private final class Box: Sendable {
    let file: FileDescriptor
    init(_ file: consuming FileDescriptor) { self.file = file }
  }
}
