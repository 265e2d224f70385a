import Glibc

/// The kernel's table of record locks (`/proc/locks`): which process holds a POSIX lock on
/// which file, whatever name the file has now.
public enum RecordLockTable {
  /// The files on which process `pid` holds a POSIX write lock, of those on the same
  /// filesystem as the file `identity` is; empty if the table cannot be read.
  public static func writeLocks(of pid: Int32, onFileSystemOf identity: FileStatus.Identity)
    -> Set<FileStatus.Identity>
  {
    guard let bytes = try? FileSystem.readFile("/proc/locks", limit: 1 << 22) else { return [] }
    let (major, minor) = (deviceMajor(identity.device), deviceMinor(identity.device))
    var files: Set<FileStatus.Identity> = []
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
      // "1: POSIX  ADVISORY  WRITE 13672 00:1a:12345 0 EOF"; a waiter's line has "->" second.
      let words = line.split(separator: UInt8(ascii: " ")).map {
        String(decoding: $0, as: UTF8.self)
      }
      guard words.count >= 6, words[1] == "POSIX", words[3] == "WRITE", words[4] == String(pid)
      else { continue }
      let place = words[5].split(separator: ":")
      guard place.count == 3, let inode = UInt64(place[2]),
        UInt64(place[0], radix: 16) == major, UInt64(place[1], radix: 16) == minor
      else { continue }
      files.insert(FileStatus.Identity(device: identity.device, inode: inode))
    }
    return files
  }

  /// The user a process runs as (the owner of its `/proc` directory), nil if it is gone.
  public static func userID(of pid: Int32) -> UInt32? {
    guard pid > 0 else { return nil }
    return try? FileSystem.status("/proc/\(pid)").ownerID
  }

  /// `major(3)` of a `dev_t`, as glibc encodes it.
  static func deviceMajor(_ device: UInt64) -> UInt64 {
    ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
  }

  /// `minor(3)` of a `dev_t`, as glibc encodes it.
  static func deviceMinor(_ device: UInt64) -> UInt64 {
    (device & 0xff) | ((device >> 12) & ~0xff)
  }
}
