import Glibc

/// What `stat(2)`, `lstat(2)` or `fstat(2)` say about a file.
public struct FileStatus: Sendable, Hashable {
  private let mode: mode_t
  /// The owner's user ID.
  public let ownerID: UInt32
  /// The owning group's ID.
  public let groupID: UInt32
  /// How many hard links the file has.
  public let linkCount: Int
  /// Its size in bytes (`st_size`).
  public let size: Int
  /// The device and inode: what the file is, whatever name it has now.
  public let identity: Identity

  /// A file's device and inode number (`st_dev`, `st_ino`).
  public struct Identity: Sendable, Hashable {
    let device: UInt64
    let inode: UInt64
  }

  init(_ status: stat) {
    mode = status.st_mode
    ownerID = status.st_uid
    groupID = status.st_gid
    linkCount = Int(status.st_nlink)
    size = Int(status.st_size)
    identity = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
  }

  /// A status with these values (for tests of permission rules).
  public init(
    permissions: UInt32, ownerID: UInt32, groupID: UInt32, isDirectory: Bool = false
  ) {
    mode = mode_t(permissions) | (isDirectory ? S_IFDIR : S_IFREG)
    self.ownerID = ownerID
    self.groupID = groupID
    linkCount = 1
    size = 0
    identity = Identity(device: 0, inode: 0)
  }

  /// The permission bits (`0o7777` of `st_mode`).
  public var permissions: UInt32 { UInt32(mode & 0o7777) }

  /// A directory (`S_IFDIR`).
  public var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
  /// A regular file (`S_IFREG`): not a FIFO, socket, device, directory or symlink.
  public var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
  /// A character device (`S_IFCHR`), like a GPIO chip.
  public var isCharacterDevice: Bool { mode & S_IFMT == S_IFCHR }
  /// The sticky bit (`S_ISVTX`): in a directory, only a file's owner may remove or rename it.
  public var isSticky: Bool { mode & S_ISVTX != 0 }
  /// A FIFO, a named pipe (`S_IFIFO`).
  public var isFIFO: Bool { mode & S_IFMT == S_IFIFO }
  /// A Unix-domain socket (`S_IFSOCK`).
  public var isSocket: Bool { mode & S_IFMT == S_IFSOCK }
  /// Whether it is a symbolic link (as `lstat(2)` sees one).
  public var isSymbolicLink: Bool { mode & S_IFMT == S_IFLNK }
  /// The group may write it (`S_IWGRP`).
  public var isGroupWritable: Bool { mode & S_IWGRP != 0 }
  /// Someone (owner, group or others) may write it: it is not read-only.
  public var isWritableBySomeone: Bool { mode & (S_IWUSR | S_IWGRP | S_IWOTH) != 0 }
  /// Everyone may write it (`S_IWOTH`).
  public var isWorldWritable: Bool { mode & S_IWOTH != 0 }
}
