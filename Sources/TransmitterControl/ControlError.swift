import LinuxSystem

/// The runtime directory, a lock or a state record could not be used.
public enum ControlError: Error, Hashable, CustomStringConvertible {
  /// The directory could not be made or examined.
  case directory(path: String, errno: Errno)
  /// The directory is not safe to keep locks in.
  case unsafeDirectory(path: String, reason: String)
  /// The shared directory exists, but this member of its group may not write in it (made by
  /// root without the package's tmpfiles line): going on alone would split "one sender per
  /// device".
  case notShared(path: String, status: FileStatus, groupName: String)
  /// A lock or record file could not be used.
  case file(operation: String, path: String, errno: Errno)
  /// A file in the directory is not what morsetorch made.
  case unsafeFile(path: String, reason: String)
  /// Another transmitter did not stop when asked.
  case holderDidNotStop(pid: Int32, device: String, reason: String)
  /// A lock file is locked by no process this system can name (`F_GETLK` says pid -1 for an
  /// open file description lock, 0 for a process in another PID namespace): not morsetorch's.
  case lockNotHeldByProcess(path: String, pid: Int32)
  /// The tickets file of a device was held longer than morsetorch ever holds it, by a
  /// process that is therefore no morsetorch taking its turn.
  case ticketsLockHeld(path: String, pid: Int32, patience: Duration)
  /// A record another user wrote, which only root (acting with that user's rights) or that
  /// user may apply.
  case recordOfAnotherUser(device: String, pid: Int32, writerID: UInt32)
  /// A device name too long for the runtime directory's file names.
  case nameTooLong(name: String, limit: Int)
  /// The transmitter whose record is there still runs and holds the lock file it locked, but
  /// that file is no longer at `path` (moved away: a member may rename the files it made).
  case lockFileMoved(device: String, pid: Int32, path: String)

  /// What went wrong and what to do.
  public var description: String {
    let fix =
      "set \(RuntimeDirectory.environmentVariable) to a directory only you can write, "
      + "or create \(RuntimeDirectory.systemPath) (man morsetorch, PERMISSIONS)"
    switch self {
    case .directory(let path, let errno):
      return "cannot use the runtime directory \(shown: path): \(errno); \(fix)"
    case .unsafeDirectory(let path, let reason):
      return "refusing the runtime directory \(shown: path): \(reason); \(fix)"
    case .notShared(let path, let status, let groupName):
      let mode = "0" + String(status.permissions, radix: 8)
      return
        "the shared runtime directory \(shown: path) is not shared with group \(groupName) (mode "
        + "\(mode), owner \(status.ownerID), group \(status.groupID)), so root's status and stop "
        + "would not see your transmissions; make it as the package does: `sudo chgrp "
        + "\(groupName) \(shown: path) && sudo chmod 3770 \(shown: path)` (or set "
        + "\(RuntimeDirectory.environmentVariable) to a directory of your own)"
    case .file(let operation, let path, let errno):
      return "cannot \(operation) \(shown: path): \(errno)"
    case .unsafeFile(let path, let reason):
      return "refusing \(shown: path): \(reason)"
    case .holderDidNotStop(let pid, let device, let reason):
      return "the transmission on \(shown: device) (pid \(pid)) did not stop when asked: \(reason)"
    case .lockNotHeldByProcess(let path, let pid):
      let kind =
        pid == -1
        ? "an open file description lock (F_OFD_SETLK), which morsetorch never takes"
        : "a process in another PID namespace"
      return
        "\(shown: path) is locked by \(kind) (F_GETLK reports pid \(pid)), so no process can be "
        + "asked to let go of it; find the holder with `fuser -v \(shown: path)` and end it"
    case .lockFileMoved(let device, let pid, let path):
      return
        "the transmission on \(shown: device) (pid \(pid)) is still running, but the lock file "
        + "it holds is no longer \(shown: path) (someone moved it away); nothing was done: let it "
        + "finish or end it (kill \(pid)), then try again"
    case .ticketsLockHeld(let path, let pid, let patience):
      return
        "\(shown: path) has been locked by pid \(pid) for over \(patience.components.seconds) s, "
        + "though morsetorch holds it only a moment, so that process is not waiting its turn; "
        + "nothing was done: root's next `morsetorch send --wait` on this device replaces the "
        + "file, or end that process"
    case .recordOfAnotherUser(let device, let pid, let writerID):
      return
        "\(shown: device) was left claimed by morsetorch pid \(pid) of user \(writerID), killed "
        + "before it could put it back; only root (with CAP_SETUID and CAP_SETGID) or user "
        + "\(writerID) may restore it from its record (`morsetorch stop`), since nobody else "
        + "can act with that user's rights"
    case .nameTooLong(let name, let limit):
      return "the device name \(name.debugDescription) is too long for the runtime directory's "
        + "file names (at most \(limit) bytes once %, . and / are escaped)"
    }
  }
}
