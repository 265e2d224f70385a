import Glibc

/// The directory holding each LED's lock and state record.
///
/// Nothing in it is followed blindly: the directory must be a real directory (not a symlink)
/// owned by root or by this user and not writable by everyone; files are opened with
/// `O_NOFOLLOW` and must be regular files with one link. So another user can neither plant a
/// record nor point a name at a file of their choosing.
public struct RuntimeDirectory: Sendable, Hashable {
  /// The environment variable that overrides the directory (tests, unusual set-ups).
  public static let environmentVariable = "MORSETORCH_RUNTIME_DIR"
  /// The system-wide directory: shared by root and, when an administrator makes it group
  /// writable (README: Permissions), by the members of the LED group.
  public static let systemPath = "/run/morsetorch"

  /// The directory's path.
  public let path: String

  /// A runtime directory at `path`, checked and created (mode 0700) if missing.
  public init(path: String) throws(ReservationError) {
    try self.init(path: path, mode: 0o700)
  }

  private init(path: String, mode: mode_t) throws(ReservationError) {
    self.path = path
    try prepare(mode: mode)
  }

  /// The directory to use: `MORSETORCH_RUNTIME_DIR`; else `/run/morsetorch` for root (made if
  /// missing) or for a user who may write it; else `$XDG_RUNTIME_DIR/morsetorch`.
  public init(environment: [String: String]) throws(ReservationError) {
    if let path = environment[Self.environmentVariable], !path.isEmpty {
      try self.init(path: path)
      return
    }
    if Syscalls.effectiveUserID == 0 {
      try self.init(path: Self.systemPath, mode: 0o755)
      return
    }
    if Syscalls.isAccessible(Self.systemPath, W_OK | X_OK),
      let shared = try? RuntimeDirectory(existing: Self.systemPath)
    {
      self = shared
      return
    }
    guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
      throw .noDirectory
    }
    try self.init(path: runtime + "/morsetorch")
  }

  private init(existing path: String) throws(ReservationError) {
    self.path = path
    try check()
  }

  /// The path of a file in the directory.
  func file(_ name: String) -> String { path + "/" + name }

  private func prepare(mode: mode_t) throws(ReservationError) {
    do throws(Errno) {
      try Syscalls.makeDirectory(path, mode: mode)
    } catch  where error.code == EEXIST {
      // Already there: checked below like any other.
    } catch {
      throw .directory(path: path, errno: error)
    }
    try check()
  }

  private func check() throws(ReservationError) {
    let status: stat
    do throws(Errno) {
      status = try Syscalls.linkStatus(path)
    } catch {
      throw .directory(path: path, errno: error)
    }
    guard status.st_mode & S_IFMT == S_IFDIR else {
      throw .unsafeDirectory(path: path, reason: "it is not a directory (or is a symlink)")
    }
    guard status.st_uid == 0 || status.st_uid == Syscalls.effectiveUserID else {
      throw .unsafeDirectory(
        path: path, reason: "it belongs to another user (uid \(status.st_uid))")
    }
    guard status.st_mode & S_IWOTH == 0 else {
      throw .unsafeDirectory(path: path, reason: "everyone may write in it")
    }
  }
}

/// The runtime directory, a lock or a state record could not be used.
public enum ReservationError: Error, Hashable, CustomStringConvertible {
  /// No directory could be chosen.
  case noDirectory
  /// The directory could not be made or examined.
  case directory(path: String, errno: Errno)
  /// The directory is not safe to keep locks in.
  case unsafeDirectory(path: String, reason: String)
  /// A lock or record file could not be used.
  case file(operation: String, path: String, errno: Errno)
  /// A file in the directory is not what morsetorch made.
  case unsafeFile(path: String, reason: String)
  /// Another transmitter did not stop when asked.
  case holderDidNotStop(pid: Int32, led: String)

  /// What went wrong and what to do.
  public var description: String {
    let fix =
      "set \(RuntimeDirectory.environmentVariable) to a directory only you can write, "
      + "or create \(RuntimeDirectory.systemPath) (see README: Permissions)"
    switch self {
    case .noDirectory:
      return "no runtime directory for the LED locks: XDG_RUNTIME_DIR is not set; \(fix)"
    case .directory(let path, let errno):
      return "cannot use the runtime directory \(path): \(errno); \(fix)"
    case .unsafeDirectory(let path, let reason):
      return "refusing the runtime directory \(path): \(reason); \(fix)"
    case .file(let operation, let path, let errno):
      return "cannot \(operation) \(path): \(errno)"
    case .unsafeFile(let path, let reason):
      return "refusing \(path): \(reason); remove it if you did not expect it"
    case .holderDidNotStop(let pid, let led):
      return "the transmission on LED \(led) (pid \(pid)) did not stop when asked"
    }
  }
}
