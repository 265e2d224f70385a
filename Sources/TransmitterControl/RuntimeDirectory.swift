import LinuxSystem

/// Why a member's transmissions are kept where the other users of the shared directory cannot
/// see them: `missing`, the shared directory, does not exist yet (no systemd-tmpfiles made
/// it at boot, and root has run no command since), so `used` is this user's own.
public struct UnsharedRuntime: Sendable, Hashable {
  /// The shared directory that is missing.
  public let missing: String
  /// The private directory used instead.
  public let used: String
  /// The group the shared directory is for.
  public let groupName: String
}

/// The directory holding each device's lock and state record.
///
/// Nothing in it is followed blindly: the directory must be a real directory (not a symlink)
/// owned by root or by this user, not writable by everyone, and — when its group may write in
/// it, as the LED group may in the package's `/run/morsetorch` — sticky, so that no member can
/// remove or replace another user's lock or record. Files are opened with `O_NOFOLLOW` and
/// must be regular files with one link. What another user writes there (records, locks) is
/// input from that user: a record is applied with no more rights than its writer has.
public struct RuntimeDirectory: Sendable, Hashable {
  /// The environment variable that overrides the directory (tests, unusual set-ups).
  public static let environmentVariable = "MORSETORCH_RUNTIME_DIR"
  /// The system-wide directory: shared by root and, when an administrator makes it group
  /// writable (the package's tmpfiles line), by the members of the LED group.
  public static let systemPath = "/run/morsetorch"

  /// The directory's path.
  public let path: String
  /// The other places this user's commands may have used before (`/tmp/morsetorch-UID` while
  /// `/run/morsetorch` was missing, `/run/morsetorch` once made): a transmission of this
  /// user's that started there is still found by `status` and `stop`, and a rerun cancels
  /// it. See `others`.
  let otherPaths: [String]
  /// Why this user's transmissions here are unseen by the other users of the shared
  /// directory, when they are: said by `send`, never silent.
  public let unshared: UnsharedRuntime?

  /// A runtime directory at `path`, checked and created (mode 0700) if missing.
  public init(path: String) throws(ControlError) {
    try self.init(path: path, permissions: 0o700)
  }

  private init(
    path: String, permissions: UInt32, group: UInt32? = nil, otherPaths: [String] = [],
    unshared: UnsharedRuntime? = nil
  ) throws(ControlError) {
    self.path = path
    self.otherPaths = otherPaths.filter { $0 != path }
    self.unshared = unshared
    try prepare(permissions: permissions, group: group)
  }

  /// The other places of `otherPaths` that exist and pass the same checks (a directory of
  /// this user's or root's, not a symlink, not writable by everyone); the rest are ignored.
  public var others: [RuntimeDirectory] {
    otherPaths.compactMap { try? RuntimeDirectory(existing: $0) }
  }

  /// The directories tried when the environment names none, in order (see
  /// `init(environment:places:)`).
  public struct Places: Sendable, Hashable {
    /// System-wide directories: made by root where their parent exists, used by others where
    /// they may write them.
    public var shared: [String]
    /// Where a last, per-user directory `morsetorch-UID` is made.
    public var temporary: String
    /// The group the shared directories are shared with (`leds`), if the system has it.
    public var group: UInt32?

    /// These places, shared with `group`.
    public init(shared: [String], temporary: String, group: UInt32? = nil) {
      self.shared = shared
      self.temporary = temporary
      self.group = group
    }

    /// `/run/morsetorch`, `/var/run/morsetorch` (OpenWrt, older systems), and `/tmp`; shared
    /// with group `leds` where there is one.
    public static var system: Places {
      Places(
        shared: [RuntimeDirectory.systemPath, "/var/run/morsetorch"], temporary: "/tmp",
        group: UserRights.groupID(named: sharedGroupName))
    }

    /// The group the package shares the directory with.
    public static let sharedGroupName = "leds"
  }

  /// The directory to use: `MORSETORCH_RUNTIME_DIR`; else the first shared place that root can
  /// make (its parent exists) or another user may write; else `$XDG_RUNTIME_DIR/morsetorch`;
  /// else `/tmp/morsetorch-UID`, private to this user. Each is checked like any other.
  ///
  /// Every place of that list is also looked in (`others`): a transmission of this user's is
  /// found wherever it started. A member of `places.group` who falls back to a private
  /// directory, because no shared one exists yet, is told so (`unshared`).
  public init(environment: [String: String], places: Places = .system) throws(ControlError) {
    if let path = environment[Self.environmentVariable], !path.isEmpty {
      try self.init(path: path)
      return
    }
    var privatePaths: [String] = []
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
      privatePaths.append(runtime + "/morsetorch")
    }
    privatePaths.append(places.temporary + "/morsetorch-\(CurrentProcess.effectiveUserID)")
    let everyPath = places.shared + privatePaths
    for path in places.shared {
      if let shared = try Self.shared(path, group: places.group, otherPaths: everyPath) {
        self = shared
        return
      }
    }
    // No shared place exists (that is all `shared` returns nil for, for a member).
    var unshared: UnsharedRuntime?
    if CurrentProcess.effectiveUserID != 0, let group = places.group,
      CurrentProcess.groupIDs.contains(group),
      let missing = places.shared.first
    {
      unshared = UnsharedRuntime(
        missing: missing, used: privatePaths[0], groupName: Places.sharedGroupName)
    }
    try self.init(
      path: privatePaths[0], permissions: 0o700, otherPaths: everyPath, unshared: unshared)
  }

  /// The shared directory at `path`: made by root if missing (nil if its parent is missing
  /// too), as the package's tmpfiles line makes it where `group` exists (3770 root:group),
  /// else 0755; for another user, nil unless it exists and may be written. A member of
  /// `group` who may not write an existing one is told so (`notShared`) rather than going on
  /// alone in a directory of their own, unseen by root's `status` and `stop`.
  private static func shared(_ path: String, group: UInt32?, otherPaths: [String])
    throws(ControlError) -> RuntimeDirectory?
  {
    guard CurrentProcess.effectiveUserID == 0 else {
      guard FileSystem.isWritableDirectory(path) else {
        if let group, CurrentProcess.groupIDs.contains(group),
          let status = try? FileSystem.linkStatus(path), status.isDirectory
        {
          throw .notShared(path: path, status: status, groupName: Places.sharedGroupName)
        }
        return nil
      }
      return try? RuntimeDirectory(existing: path, otherPaths: otherPaths)
    }
    do throws(ControlError) {
      return try RuntimeDirectory(
        path: path, permissions: group == nil ? 0o755 : 0o700, group: group,
        otherPaths: otherPaths)
    } catch {
      if case .directory(_, let errno) = error, errno == .noSuchFile { return nil }
      throw error
    }
  }

  private init(existing path: String, otherPaths: [String] = []) throws(ControlError) {
    self.path = path
    self.otherPaths = otherPaths.filter { $0 != path }
    unshared = nil
    try check()
  }

  /// The path of a file in the directory.
  func file(_ name: String) -> String { path + "/" + name }

  /// Makes the directory if it is missing (with `group`: 3770, root's and that group's, as
  /// the package's tmpfiles line says), then checks it.
  private func prepare(permissions: UInt32, group: UInt32?) throws(ControlError) {
    do throws(Errno) {
      try FileSystem.makeDirectory(path, permissions: permissions)
      if let group {
        // Made 0700 first: shared only once it is the group's, setgid and sticky.
        let directory = try FileDescriptor.open(path, [.readOnly, .directory, .noFollow])
        try directory.setOwner(0, group: group)
        try directory.setPermissions(0o3770)
      }
    } catch  where error == .fileExists {
      // Already there: checked below like any other.
    } catch {
      throw .directory(path: path, errno: error)
    }
    try check()
  }

  private func check() throws(ControlError) {
    let status = try Errno.mapping { () throws(Errno) in
      try FileSystem.linkStatus(path)
    } to: {
      ControlError.directory(path: path, errno: $0)
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
    guard !status.isGroupWritable || status.isSticky else {
      throw .unsafeDirectory(
        path: path,
        reason: "its group may write in it but it is not sticky, so any member could remove "
          + "another user's lock (`chmod 3770 \(shown: path)`, as the package makes it)")
    }
  }
}
