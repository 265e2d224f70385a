import Glibc

/// The kernel's table of record locks (`/proc/locks`): which process holds a POSIX lock on
/// which file, whatever name the file has now.
public enum RecordLockTable {
  /// The files on which process `pid` holds a POSIX write lock, of those on the same
  /// filesystem as the file `identity` is; empty if the table cannot be read.
  public static func writeLocks(of pid: Int32, onFileSystemOf identity: FileStatus.Identity)
    -> Set<FileStatus.Identity>
  {
    Set(
      locks(onFileSystemOf: identity).filter {
        $0.kind == "POSIX" && $0.isWrite && $0.pid == pid
      }.map(\.file))
  }

  /// Who holds a lock on the file `identity`, as the table says: a process ID for a POSIX
  /// lock (0 for a process in another PID namespace), -1 for an open file description lock
  /// (which no process holds); waiters are left out, and so is a file with no lock. Read with
  /// no descriptor of the file opened (closing one would end a POSIX lock this process holds
  /// on it).
  public static func holders(of identity: FileStatus.Identity) -> [Int32] {
    locks(onFileSystemOf: identity).filter { $0.file == identity }.map(\.pid)
  }

  /// The locks held (not waited for) on files of the filesystem `identity` is on.
  private static func locks(onFileSystemOf identity: FileStatus.Identity)
    -> [(kind: String, isWrite: Bool, pid: Int32, file: FileStatus.Identity)]
  {
    guard let bytes = try? FileSystem.readFile("/proc/locks", limit: 1 << 22) else { return [] }
    let (major, minor) = (deviceMajor(identity.device), deviceMinor(identity.device))
    var locks: [(kind: String, isWrite: Bool, pid: Int32, file: FileStatus.Identity)] = []
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
      // "1: POSIX  ADVISORY  WRITE 13672 00:1a:12345 0 EOF"; a waiter's line has "->" second.
      let words = line.split(separator: UInt8(ascii: " ")).map {
        String(decoding: $0, as: UTF8.self)
      }
      guard words.count >= 6, words[1] != "->", let pid = Int32(words[4]) else { continue }
      let place = words[5].split(separator: ":")
      guard place.count == 3, let inode = UInt64(place[2]),
        UInt64(place[0], radix: 16) == major, UInt64(place[1], radix: 16) == minor
      else { continue }
      locks.append(
        (
          words[1], words[3] == "WRITE", pid,
          FileStatus.Identity(device: identity.device, inode: inode)
        ))
    }
    return locks
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
