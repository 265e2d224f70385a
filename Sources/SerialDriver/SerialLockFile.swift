import LinuxSystem

/// A serial port's own lock convention on Linux (the FHS's, from HDB UUCP, kept by minicom,
/// cu and picocom): while a program uses `ttyUSB0`, `/var/lock/LCK..ttyUSB0` holds its pid
/// as ten ASCII digits and a newline. A lock whose process is gone is stale, and taken over.
///
/// The directory is a trust boundary (every user may write in `/run/lock` on Debian): a lock
/// file is created exclusively and never followed through a symlink; one that is not a
/// small regular file, or names no pid, is someone else's, and the port is busy. Where the
/// directory cannot be written (not there, or not this user's to write), the convention is
/// left aside: morsetorch's own device lock and the port's exclusive mode still hold.
public struct SerialLockFile: Sendable {
  /// The directory of lock files: `/run/lock` (`/var/lock` links there).
  public let directory: String

  public init(directory: String = "/run/lock") {
    self.directory = directory
  }

  /// The lock file of the port the kernel names `name`.
  public func path(of name: String) -> String { directory + "/LCK.." + name }

  /// The pid a lock file holds, as the convention writes it.
  static func contents(pid: Int32) -> [UInt8] {
    let digits = String(pid)
    return Array((String(repeating: " ", count: max(0, 10 - digits.count)) + digits + "\n").utf8)
  }

  /// The pid `bytes` hold: ten columns and a newline (HDB), or a 4-byte binary pid (old
  /// Kermit-style files, where the text reading fails).
  static func pid(in bytes: [UInt8]) -> Int32? {
    let text = String(decoding: bytes, as: UTF8.self).trimmingSpaces
    if let pid = Int32(text), pid > 0 { return pid }
    guard bytes.count == 4 else { return nil }
    let pid = bytes.enumerated().reduce(Int32(0)) { $0 | Int32($1.element) << ($1.offset * 8) }
    return pid > 0 ? pid : nil
  }

  /// Takes the lock of port `name` for `pid`: true once taken, false where the convention is
  /// left aside (the directory cannot be written). `busy` when a running process holds it,
  /// naming it.
  public func acquire(_ name: String, port: String, pid: Int32) throws(SerialError) -> Bool {
    let path = path(of: name)
    for _ in 0..<3 {
      do throws(Errno) {
        let file = try FileDescriptor.open(
          path, [.writeOnly, .create, .exclusive, .noFollow], permissions: 0o644)
        try file.writeWhole(Self.contents(pid: pid))
        return true
      } catch .fileExists {
        guard let holder = try holder(path, port: port) else { continue }  // stale: removed
        throw .lockedBy(path: port, lockFile: path, pid: holder)
      } catch
        where error == .permissionDenied || error == .noSuchFile
        || error == .readOnlyFileSystem || error == .notPermitted
      {
        return false
      } catch {
        throw .io(operation: "create the lock file", path: path, errno: error)
      }
    }
    throw .lockedBy(path: port, lockFile: path, pid: nil)
  }

  /// The running process holding the lock at `path`; nil once a stale lock was removed.
  /// Throws `lockedBy` (pid nil) for a file that is no lock morsetorch can read.
  private func holder(_ path: String, port: String) throws(SerialError) -> Int32? {
    let bytes: [UInt8]
    do throws(Errno) {
      let file = try FileDescriptor.open(path, [.readOnly, .noFollow, .nonBlocking])
      guard try file.status().isRegularFile else { throw Errno.invalidArgument }
      bytes = try file.readAll(limit: 64)
    } catch .noSuchFile {
      return nil  // gone meanwhile
    } catch {
      throw .lockedBy(path: port, lockFile: path, pid: nil)
    }
    guard let pid = Self.pid(in: bytes) else {
      throw .lockedBy(path: port, lockFile: path, pid: nil)
    }
    if ProcessHandle.isRunning(pid) { return pid }
    // Stale: its process is gone. Removed (another may have beaten us to it).
    do throws(Errno) {
      try FileSystem.unlink(path)
    } catch {
      guard error == .noSuchFile else { throw .lockedBy(path: port, lockFile: path, pid: pid) }
    }
    return nil
  }

  /// Removes the lock of port `name` if it is `pid`'s.
  public func release(_ name: String, pid: Int32) {
    let path = path(of: name)
    guard let file = try? FileDescriptor.open(path, [.readOnly, .noFollow, .nonBlocking]),
      (try? file.status())?.isRegularFile == true,
      let bytes = try? file.readAll(limit: 64), Self.pid(in: bytes) == pid
    else { return }
    try? FileSystem.unlink(path)
  }
}

extension String {
  /// Without the spaces and newlines around it.
  fileprivate var trimmingSpaces: Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
    return self.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
      .reduce(into: Substring()) { $0.append($1) }
  }
}
