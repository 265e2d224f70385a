import LinuxSystem

/// The files of one device in the runtime directory, and the careful ways to open them: never
/// through a symlink (`O_NOFOLLOW`), never waiting in `open` (`O_NONBLOCK`: a FIFO planted
/// there opens at once, and is then refused as no regular file).
///
/// `NAME.lock` (held by the transmitter), `NAME.state` (its record), `NAME.tickets` (orders
/// the waiters) and `NAME.wait.N` (one per waiting sender, locked by it).
struct RuntimeFiles {
  let name: String
  let directory: RuntimeDirectory

  /// The name as it appears in file names: `%`, `.` and `/` written as `%25`, `%2E` and
  /// `%2F`, so that no name's files can be mistaken for another's (`.x.state` is not the
  /// temporary record of `x`), the suffixes below are the only dots, and a device kind whose
  /// names have a `/` (GPIO lines: `gpio/gpiochip0/17`) has files of its own.
  static func stem(of name: String) -> String {
    var stem = ""
    for character in name {
      switch character {
      case "%": stem += "%25"
      case ".": stem += "%2E"
      case "/": stem += "%2F"
      default: stem.append(character)
      }
    }
    return stem
  }

  /// The name of the file stem `stem`, or nil if it is no stem of any name.
  static func name(ofStem stem: String) -> String? {
    var name = ""
    var rest = Substring(stem)
    while let character = rest.first {
      if rest.hasPrefix("%25") {
        name += "%"
        rest = rest.dropFirst(3)
      } else if rest.hasPrefix("%2E") {
        name += "."
        rest = rest.dropFirst(3)
      } else if rest.hasPrefix("%2F") {
        name += "/"
        rest = rest.dropFirst(3)
      } else if character == "%" || character == "." {
        return nil
      } else {
        name.append(character)
        rest = rest.dropFirst()
      }
    }
    return name
  }

  /// The longest stem: the longest file name made from it (`STEM.wait.<20 digits>.stop`) must
  /// fit in 255 bytes.
  static let stemLimit = 220

  /// Throws `nameTooLong` when the device's file names would not fit in the directory.
  func checkNameLength() throws(ControlError) {
    guard stem.utf8.count <= Self.stemLimit else {
      throw .nameTooLong(name: name, limit: Self.stemLimit)
    }
  }

  var stem: String { Self.stem(of: name) }
  var lock: String { directory.file(stem + ".lock") }
  var record: String { directory.file(stem + ".state") }
  /// Where the holder takes stop requests (`StopListener`).
  var stopDoor: String { directory.file(stem + ".stop") }

  /// Where the owner of the lock file `lockPath` (the device's lock or a ticket) takes stop
  /// requests.
  func stopDoor(forLockPath lockPath: String) -> String {
    lockPath == lock ? stopDoor : lockPath + ".stop"
  }
  var tickets: String { directory.file(stem + ".tickets") }
  var ticketPrefix: String { stem + ".wait." }
  var temporaryRecordPrefix: String { ".\(stem).state." }

  /// Opens (creating if needed) a lock-type file: never through a symlink (root or its owner
  /// replaces one, as `replaceUnopenable` says), and only as `checkUsable` says.
  ///
  /// A file that is there is opened without `O_CREAT`: with `fs.protected_regular = 2`
  /// (Debian's default), an `O_CREAT` open of another user's file in a group-writable sticky
  /// directory fails with `EACCES`, root's too, so the second user of an LED could never
  /// lock it. Only a missing file is created, exclusively (another process may create it
  /// first: then it is opened).
  func openLockFile(_ path: String? = nil) throws(ControlError) -> FileDescriptor {
    let path = path ?? lock
    let options: OpenOptions = [.readWrite, .noFollow, .nonBlocking]
    for _ in 0..<8 {
      let file: FileDescriptor
      do throws(Errno) {
        file = try FileDescriptor.open(path, options)
      } catch  where error == .noSuchFile {
        do throws(Errno) {
          file = try FileDescriptor.open(
            path, options.union([.create, .exclusive]), permissions: 0o664)
        } catch  where error == .fileExists {
          continue
        } catch {
          throw .file(operation: "create", path: path, errno: error)
        }
      } catch  where error == .permissionDenied {
        throw unusableLockFile(path) ?? .file(operation: "open", path: path, errno: error)
      } catch  where [.tooManySymbolicLinks, .noSuchDeviceOrAddress, .isDirectory].contains(error) {
        // A symlink, a socket or a directory: replaced, then opened on the next round.
        try replaceUnopenable(path)
        continue
      } catch {
        throw .file(operation: "open", path: path, errno: error)
      }
      if file.isLockedByThisProcess {
        // Another name of a lock this process holds (someone made a link): replaced, then
        // opened on the next round. (`file` is kept open until that lock is let go: closing
        // it would end the lock.)
        try replaceLinkToHeldLock(path, file)
        continue
      }
      try checkUsable(file, path: path)
      return file
    }
    throw .file(operation: "create", path: path, errno: .fileExists)
  }

  /// Puts a new plain file in place of `file` at `path`, another name of a lock file this
  /// process holds, when this is root or its owner; otherwise throws what is wrong.
  private func replaceLinkToHeldLock(_ path: String, _ file: borrowing FileDescriptor)
    throws(ControlError)
  {
    let owner = (try? file.status())?.ownerID
    let euid = CurrentProcess.effectiveUserID
    if euid == 0 || owner == euid, let replacement = replacement(for: path) {
      _ = consume replacement  // unlocked: opened again on the next round
      return
    }
    throw .unsafeFile(
      path: path,
      reason: "it is another name of a lock file this process holds (someone made a link); "
        + "root's next morsetorch send or stop on this device replaces it")
  }

  /// Puts a new plain file in place of what someone put at `path` that no lock can be taken
  /// on (a symlink, a socket), when this is root or its owner; otherwise, or for a directory,
  /// throws what is wrong.
  private func replaceUnopenable(_ path: String) throws(ControlError) {
    guard let status = try? FileSystem.linkStatus(path), !status.isRegularFile else {
      return  // gone, or replaced meanwhile: try again
    }
    let euid = CurrentProcess.effectiveUserID
    if euid == 0 || status.ownerID == euid {
      if status.isDirectory {
        // No file can be renamed over a directory: it goes aside, then a lock file is made.
        if moveAside(path) { return }
      } else if let replacement = replacement(for: path) {
        _ = consume replacement  // unlocked: opened again on the next round
        return
      }
    }
    let what =
      status.isSymbolicLink ? "a symbolic link" : status.isDirectory ? "a directory" : "no file"
    throw .unsafeFile(
      path: path,
      reason: "it is \(what) that user \(status.ownerID) put there, not a lock file; "
        + "root's next morsetorch send or stop on this device replaces it")
  }

  /// Removes what is at `path`, where a file of morsetorch's goes: a directory someone put
  /// there (which nothing can be renamed or bound over) is moved aside, by root or its owner.
  func removeEvenADirectory(_ path: String) {
    do throws(Errno) {
      try FileSystem.unlink(path)
    } catch  where error == .isDirectory {
      let status = try? FileSystem.linkStatus(path)
      let euid = CurrentProcess.effectiveUserID
      if euid == 0 || status?.ownerID == euid { _ = moveAside(path) }
    } catch {}
  }

  /// Renames what is at `path` (a directory someone put where a file of morsetorch's goes) to
  /// an unpredictable hidden name beside it, `.STEM.aside.…`, where it harms nothing; whether
  /// it moved.
  func moveAside(_ path: String) -> Bool {
    (try? FileSystem.rename(path, to: unpredictableName(".\(stem).aside."))) != nil
  }

  /// Why a lock-type file this user may not open is of no use to the group: another user's
  /// file that the group may not write (a member made it so, or made it before the
  /// directory was shared). Nil when it is not that.
  private func unusableLockFile(_ path: String) -> ControlError? {
    guard let status = try? FileSystem.linkStatus(path),
      status.ownerID != CurrentProcess.effectiveUserID, !status.isGroupWritable
    else { return nil }
    let mode = "0" + String(status.permissions, radix: 8)
    return .unsafeFile(
      path: path,
      reason: "it belongs to user \(status.ownerID) and has mode \(mode), so the group cannot "
        + "lock it (root's next morsetorch send or stop on this device replaces it)")
  }

  /// Checks that `file`, opened at `path`, may serve as a lock-type file: a plain file with a
  /// single link; or, for root or the file's owner, one with more links (another user linked
  /// it elsewhere) or no plain file, which they replace once they hold its lock
  /// (`replacedIfShared`). Anyone else is told what is wrong.
  private func checkUsable(_ file: borrowing FileDescriptor, path: String)
    throws(ControlError)
  {
    let status: FileStatus
    status = try Errno.mapping { () throws(Errno) in
      try file.status()
    } to: {
      ControlError.file(operation: "examine", path: path, errno: $0)
    }
    let euid = CurrentProcess.effectiveUserID
    guard status.isRegularFile, status.linkCount == 1 else {
      if euid == 0 || status.ownerID == euid { return }
      let what =
        status.isRegularFile
        ? "it has \(status.linkCount) links (someone linked it elsewhere), so it is not this "
          + "device's alone"
        : "it is no plain file (someone put it there)"
      throw .unsafeFile(
        path: path,
        reason: "\(what); it belongs to user \(status.ownerID), and root's next morsetorch "
          + "send or stop on this device replaces it")
    }
    // In a directory shared with the LED group, the group must be able to lock it too;
    // the umask usually takes that write bit away at creation.
    if status.ownerID == euid && !status.isGroupWritable {
      try? file.setPermissions(0o664)
    }
  }

  /// The process holding the lock on `lockPath` (the device's lock by default); nil if none
  /// (or no such file). A lock no process holds — an open file description lock, which any
  /// user who may open the file can take — is an error naming the file, never a holder.
  func holder(lockPath: String? = nil) throws(ControlError) -> Int32? {
    let path = lockPath ?? lock
    guard let file = try? FileDescriptor.open(path, [.readOnly, .noFollow, .nonBlocking])
    else { return nil }
    return try Self.holder(of: file, path: path)
  }

  /// The process holding a lock on `file` (at `path`), checked as `holder(lockPath:)` says.
  static func holder(of file: borrowing FileDescriptor, path: String) throws(ControlError)
    -> Int32?
  {
    guard let pid = try? file.lockHolder() else { return nil }
    guard pid > 0 else { throw .lockNotHeldByProcess(path: path, pid: pid) }
    return pid
  }

  /// Whether `file` is still the file at `path`: a lock taken on a file that was removed or
  /// replaced meanwhile guards nothing.
  static func isStill(_ file: borrowing FileDescriptor, at path: String) -> Bool {
    guard let open = try? file.status(), let named = try? FileSystem.linkStatus(path) else {
      return false
    }
    return open.identity == named.identity
  }

  /// The lock to hold once this process holds the lock on `file`, the device's lock file:
  /// `file` itself, or a new file of this user's, locked and renamed over it
  /// when `file` is another user's and this is root (in the sticky directory that user can
  /// then no longer remove the lock from under root), when another user linked it elsewhere
  /// (a link, renamed back in, would be a file of this user's that they may write), or when
  /// it is no plain file. A replacement that fails leaves `file`. (The tickets file is
  /// replaced alike.)
  func replacedIfShared(_ file: consuming FileDescriptor) -> FileDescriptor {
    guard needsReplacing(file), let replacement = replacement(for: lock) else { return file }
    return replacement
  }

  /// Whether a lock-type file this process holds the lock on is one `replacedIfShared` replaces.
  func needsReplacing(_ file: borrowing FileDescriptor) -> Bool {
    guard let status = try? file.status() else { return false }
    let isAnotherUsersForRoot = CurrentProcess.effectiveUserID == 0 && status.ownerID != 0
    return isAnotherUsersForRoot || status.linkCount != 1 || !status.isRegularFile
  }

  /// A new lock-type file of this user's, locked, renamed over `path`; nil if that fails.
  func replacement(for path: String) -> FileDescriptor? {
    let temporary = unpredictableName(".\(stem).lock.")
    do throws(Errno) {
      let replacement = try FileDescriptor.open(
        temporary, [.readWrite, .create, .exclusive, .noFollow], permissions: 0o664)
      try replacement.setPermissions(0o664)
      guard try replacement.lock(exclusive: true, wait: false) else { throw Errno.busy }
      try FileSystem.rename(temporary, to: path)
      return replacement
    } catch {
      try? FileSystem.unlink(temporary)
      return nil
    }
  }

  /// A new file's name beside the others, `prefix` then this process's id and a random
  /// number: a member of the group cannot plant it in advance (in the sticky directory this
  /// user could not remove what another planted).
  func unpredictableName(_ prefix: String) -> String {
    directory.file(
      prefix + "\(CurrentProcess.id)." + String(UInt64.random(in: .min ... .max), radix: 16))
  }

  /// Creates a new file for writing named by `unpredictableName(prefix)`; `path` is set to
  /// its name (or the last one tried).
  func createUnpredictable(_ prefix: String, path: inout String) throws(Errno)
    -> FileDescriptor
  {
    for attempt in 1...5 {
      path = unpredictableName(prefix)
      do throws(Errno) {
        return try FileDescriptor.open(
          path, [.writeOnly, .create, .exclusive, .noFollow], permissions: 0o644)
      } catch  where error == .fileExists && attempt < 5 {
        continue
      }
    }
    throw .fileExists
  }
}
