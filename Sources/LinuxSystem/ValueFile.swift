import CLinuxSystem
import Glibc

/// A file that holds one value and is rewritten whole, again and again, through one open
/// descriptor: a sysfs attribute such as an LED's `brightness`.
///
/// Each `rewrite` is one `pwrite(2)` at offset 0, which sysfs takes as the whole new value: no
/// path lookup, open or close per value. On any other file system (the plain files tests
/// stand in with) the file is emptied first, so it reads back as that value.
public struct ValueFile: ~Copyable, Sendable {
  private let file: FileDescriptor
  private let isSysfs: Bool

  /// Opens `path` for writing.
  public init(path: String) throws(Errno) {
    // Through a local: Swift 6.0.3 (Debian trixie's, for the arm64 build) crashes when a
    // noncopyable struct's init reads a property it has just set.
    let file = try FileDescriptor.open(path, [.writeOnly])
    isSysfs = file.isOnSysfs
    self.file = file
  }

  /// Writes `bytes` as the file's whole value, in one call; a short write is `EIO`.
  public func rewrite(_ bytes: [UInt8]) throws(Errno) {
    // A plain file is emptied first, as O_TRUNC would: a reader sees the old value, nothing,
    // or the new one, never the new one over the end of the old.
    if !isSysfs { try file.truncate() }
    let written = try bytes.withUnsafeBytes { buffer in
      Result { () throws(Errno) in
        try SystemCall.retryingOnInterrupt {
          Glibc.pwrite(file.rawValue, buffer.baseAddress, buffer.count, 0)
        }
      }
    }.get()
    if written != bytes.count { throw .ioError }
  }

  /// Closes the file, reporting the error.
  public consuming func close() throws(Errno) {
    try file.close()
  }
}
