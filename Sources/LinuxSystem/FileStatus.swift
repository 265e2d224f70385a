import Glibc

/// What `stat(2)`, `lstat(2)` or `fstat(2)` say about a file.
public struct FileStatus: Sendable, Hashable {
  private let mode: mode_t
  /// The owner's user ID.
  public let ownerID: UInt32
  /// How many hard links the file has.
  public let linkCount: Int

  init(_ status: stat) {
    mode = status.st_mode
    ownerID = status.st_uid
    linkCount = Int(status.st_nlink)
  }

  /// A directory (`S_IFDIR`).
  public var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
  /// A regular file (`S_IFREG`): not a FIFO, socket, device, directory or symlink.
  public var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
  /// A Unix-domain socket (`S_IFSOCK`).
  public var isSocket: Bool { mode & S_IFMT == S_IFSOCK }
  /// The group may write it (`S_IWGRP`).
  public var isGroupWritable: Bool { mode & S_IWGRP != 0 }
  /// Someone (owner, group or others) may write it: it is not read-only.
  public var isWritableBySomeone: Bool { mode & (S_IWUSR | S_IWGRP | S_IWOTH) != 0 }
  /// Everyone may write it (`S_IWOTH`).
  public var isWorldWritable: Bool { mode & S_IWOTH != 0 }
}
