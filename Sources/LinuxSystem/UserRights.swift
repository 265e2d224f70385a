/// What one user may do to a file by its permission bits: a user ID, its primary group and
/// its other groups, as `/etc/passwd` and `/etc/group` list them.
///
/// Used to act on another user's behalf with no more rights than they have: a record written by
/// a member of the LED group is applied only where that member could write themselves, even
/// when root applies it. The files are read directly (a static executable has no NSS modules),
/// so a user known only to a network directory has no groups but the primary one found, or
/// none: fewer rights, never more.
public struct UserRights: Sendable, Hashable {
  /// The user ID.
  public let userID: UInt32
  /// The user's name, when `/etc/passwd` has it.
  public let name: String?
  /// The primary group and every group that lists the user as a member.
  public let groupIDs: Set<UInt32>

  /// The rights of `userID` with these groups.
  public init(userID: UInt32, name: String? = nil, groupIDs: Set<UInt32>) {
    self.userID = userID
    self.name = name
    self.groupIDs = groupIDs
  }

  /// The rights of `userID` as the user and group databases say (by default `/etc/passwd`
  /// and `/etc/group`); a user missing from them has no groups.
  public static func of(
    userID: UInt32, passwordFile: String = "/etc/passwd", groupFile: String = "/etc/group"
  ) -> UserRights {
    var name: String?
    var groups = Set<UInt32>()
    for fields in records(passwordFile) where fields.count >= 4 && UInt32(fields[2]) == userID {
      name = String(fields[0])
      if let group = UInt32(fields[3]) { groups.insert(group) }
      break
    }
    if let name {
      for fields in records(groupFile) where fields.count >= 4 {
        guard let group = UInt32(fields[2]) else { continue }
        if fields[3].split(separator: ",").contains(where: { $0 == name }) { groups.insert(group) }
      }
    }
    return UserRights(userID: userID, name: name, groupIDs: groups)
  }

  /// The ID of the group `name` in the group database; nil if it has none.
  public static func groupID(named name: String, groupFile: String = "/etc/group") -> UInt32? {
    records(groupFile).first { $0.count >= 3 && $0[0] == name }.flatMap { UInt32($0[2]) }
  }

  /// The lines of a colon-separated database, split into fields; none if it cannot be read.
  private static func records(_ path: String) -> [[Substring]] {
    guard let bytes = try? FileSystem.readFile(path, limit: 4 << 20) else { return [] }
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map {
      $0.split(separator: ":", omittingEmptySubsequences: false)
    }
  }

  /// Whether the permission bits of `status` let this user write the file (root may write
  /// anything), as the kernel decides: the owner's bits for the owner, else the group's for a
  /// member of its group, else everyone's.
  public func mayWrite(_ status: FileStatus) -> Bool {
    permits(status, owner: 0o200, group: 0o020, others: 0o002)
  }

  /// Whether the permission bits of `status` let this user read and write the file.
  public func mayReadAndWrite(_ status: FileStatus) -> Bool {
    permits(status, owner: 0o600, group: 0o060, others: 0o006)
  }

  private func permits(_ status: FileStatus, owner: UInt32, group: UInt32, others: UInt32)
    -> Bool
  {
    if userID == 0 { return true }
    let bits = status.permissions
    if status.ownerID == userID { return bits & owner == owner }
    if groupIDs.contains(status.groupID) { return bits & group == group }
    return bits & others == others
  }

  /// "alice (uid 1000)", or "uid 1000" when the name is unknown.
  public var shown: String {
    name.map { "\($0) (uid \(userID))" } ?? "uid \(userID)"
  }
}
