import CLinuxSystem

/// Both ends of a `pipe(2)`, close-on-exec.
@frozen public struct Pipe: ~Copyable {
  /// The end to read from.
  public let readEnd: FileDescriptor
  /// The end to write to.
  public let writeEnd: FileDescriptor

  /// `pipe2(O_CLOEXEC)`.
  public init() throws(Errno) {
    var ends: [Int32] = [-1, -1]
    _ = try SystemCall.retryingOnInterrupt { morse_pipe_cloexec(&ends) }
    readEnd = FileDescriptor(owning: ends[0])
    writeEnd = FileDescriptor(owning: ends[1])
  }

  /// Makes the pipe hold about `bytes` (a page at least): its capacity now.
  public func setCapacity(_ bytes: Int) throws(Errno) -> Int {
    let capacity = morse_pipe_set_capacity(writeEnd.rawValue, Int32(bytes))
    if capacity == -1 { throw Errno.current }
    return Int(capacity)
  }

  /// Closes the read end (once a child has its own copy) and returns the write end.
  public consuming func closingReadEnd() -> FileDescriptor {
    try? readEnd.close()
    return writeEnd
  }

  /// Closes the write end (once a child has its own copy) and returns the read end.
  public consuming func closingWriteEnd() -> FileDescriptor {
    try? writeEnd.close()
    return readEnd
  }
}
