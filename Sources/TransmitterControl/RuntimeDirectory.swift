import LinuxSystem

/// The directory holding each device's lock and state record.
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
  public init(path: String) throws(ControlError) {
    try self.init(path: path, permissions: 0o700)
  }

  private init(path: String, permissions: UInt32) throws(ControlError) {
    self.path = path
    try prepare(permissions: permissions)
  }

  /// The directory to use: `MORSETORCH_RUNTIME_DIR`; else `/run/morsetorch` for root (made if
  /// missing) or for a user who may write it; else `$XDG_RUNTIME_DIR/morsetorch`.
  public init(environment: [String: String]) throws(ControlError) {
    if let path = environment[Self.environmentVariable], !path.isEmpty {
      try self.init(path: path)
      return
    }
    if CurrentProcess.effectiveUserID == 0 {
      try self.init(path: Self.systemPath, permissions: 0o755)
      return
    }
    if FileSystem.isWritableDirectory(Self.systemPath),
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

  private init(existing path: String) throws(ControlError) {
    self.path = path
    try check()
  }

  /// The path of a file in the directory.
  func file(_ name: String) -> String { path + "/" + name }

  private func prepare(permissions: UInt32) throws(ControlError) {
    do throws(Errno) {
      try FileSystem.makeDirectory(path, permissions: permissions)
    } catch  where error == .fileExists {
      // Already there: checked below like any other.
    } catch {
      throw .directory(path: path, errno: error)
    }
    try check()
  }

  private func check() throws(ControlError) {
    let status: FileStatus
    do throws(Errno) {
      status = try FileSystem.linkStatus(path)
    } catch {
      throw .directory(path: path, errno: error)
    }
    guard status.isDirectory else {
      throw .unsafeDirectory(path: path, reason: "it is not a directory (or is a symlink)")
    }
    guard status.ownerID == 0 || status.ownerID == CurrentProcess.effectiveUserID else {
      throw .unsafeDirectory(
        path: path, reason: "it belongs to another user (uid \(status.ownerID))")
    }
    guard !status.isWorldWritable else {
      throw .unsafeDirectory(path: path, reason: "everyone may write in it")
    }
  }
}
