import LinuxSystem
import MorseReceiving

/// `--edges FILE|-`: edges read as they come (a pipe from a sensor works), a block at a time,
/// until the input ends or `stop` fires.
public final class EdgeFileSource: ReceiveSource {
  private let file: FileDescriptor
  private let stop: OneShotEvent
  private var reader = EdgeTextReader()
  /// 16 kB a read: some 800 edges of a fast sender's; every page of it is the user's private
  /// memory for as long as the reading lasts (64 kB were 48 kB more, for no edge read faster).
  private var block = [UInt8](repeating: 0, count: 16_384)
  private var isAtEnd = false

  /// Opens `path` (`-`: standard input); `stop` ends any wait for input.
  public init(path: String, stop: OneShotEvent) throws(InputError) {
    file = try Self.openInput(path)
    self.stop = stop
  }

  /// Edges.
  public var kind: ReceiveSourceKind { .edges }

  /// The next edge in the file, reading another block when those read are used up.
  public func next() throws -> MorseReading.Input? {
    while true {
      if let edge = try reader.next() { return .edge(edge) }
      if isAtEnd { return nil }
      let count = try Errno.mapping(
        { () throws(Errno) in
          try block.withUnsafeMutableBytes { bytes in
            Result { () throws(Errno) in try file.read(into: bytes, unlessFired: stop) }
          }.get()
        }, to: InputError.readFailed)
      // Nil: stopped.
      guard let count else { return nil }
      if count == 0 {
        isAtEnd = true
        reader.end()
      } else {
        reader.append(block[..<count])
      }
    }
  }
}
