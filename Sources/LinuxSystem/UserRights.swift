import Glibc
import CLinuxSystem

/// Another user to act for with no more rights than they have: a user ID, its primary group
/// and its other groups, as `/etc/passwd` and `/etc/group` list them.
///
/// Used when root puts a device back from a record another user wrote: the writes are made
/// with that user's file-system IDs and groups, on a thread of their own with no capability
/// in effect (`morse_open_beneath_as`), so the kernel decides what they may write —
/// permission bits and ACLs alike — and root never writes for them what they could not. The
/// real, effective and saved IDs stay root's, so the user gets no handle on root's process
/// (no signal, `prlimit` or `ptrace`: credentials.c says why). Only the user's groups
/// come from the databases, read directly (a static executable has no NSS modules): a user
/// they do not list may write nothing at all.
public struct UserRights: Sendable, Hashable {
  /// The user ID.
  public let userID: UInt32
  /// The user's name, when `/etc/passwd` has it.
  public let name: String?
  /// The primary group, when `/etc/passwd` has the user.
  public let groupID: UInt32?
  /// The primary group and every group that lists the user as a member.
  public let groupIDs: Set<UInt32>

  /// The rights of `userID` with primary group `groupID` and these groups.
  public init(userID: UInt32, name: String? = nil, groupID: UInt32?, groupIDs: Set<UInt32>) {
    self.userID = userID
    self.name = name
    self.groupID = groupID
    self.groupIDs = groupIDs.union(groupID.map { [$0] } ?? [])
  }

  /// The rights of `userID` as the user and group databases say (by default `/etc/passwd`
  /// and `/etc/group`); a user missing from them has no group, and may write nothing.
  public static func of(
    userID: UInt32, passwordFile: String = "/etc/passwd", groupFile: String = "/etc/group"
  ) -> UserRights {
    var name: String?
    var primary: UInt32?
    for fields in records(passwordFile) where fields.count >= 4 && UInt32(fields[2]) == userID {
      name = String(fields[0])
      primary = UInt32(fields[3])
      break
    }
    var groups = Set<UInt32>()
    if let name {
      for fields in records(groupFile) where fields.count >= 4 {
        guard let group = UInt32(fields[2]) else { continue }
        if fields[3].split(separator: ",").contains(where: { $0 == name }) { groups.insert(group) }
      }
    }
    return UserRights(userID: userID, name: name, groupID: primary, groupIDs: groups)
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

  /// Opens `path` beneath `directory` as `FileDescriptor.open(beneath:_:)` does, with this
  /// user's credentials: `EACCES` or `EPERM` when the kernel says they may not (and
  /// `EACCES` for a user the databases do not list).
  public func open(
    beneath path: String, in directory: borrowing FileDescriptor, _ options: OpenOptions
  ) throws(Errno) -> FileDescriptor {
    let raw = try withUser { user throws(Errno) in
      try SystemCall.retryingOnInterrupt {
        morse_open_beneath_as(user, directory.rawValue, path, options.rawValue, 0)
      }
    }
    return FileDescriptor(owning: raw)
  }

  /// Whether the kernel lets this user open `path` for reading and writing (`faccessat2`
  /// with `AT_EACCESS`, as them); false for a user the databases do not list.
  public func mayReadAndWrite(_ path: String) throws(Errno) -> Bool {
    do throws(Errno) {
      _ = try withUser { user throws(Errno) in
        try SystemCall.retryingOnInterrupt { morse_access_as(user, path, R_OK | W_OK) }
      }
      return true
    } catch where error == .permissionDenied || error == .notPermitted || error == .readOnlyFileSystem {
      return false
    }
  }

  private func withUser(_ body: (UnsafePointer<morse_user>) throws(Errno) -> Int32)
    throws(Errno) -> Int32
  {
    guard let groupID else { throw .permissionDenied }
    let groups = groupIDs.sorted()
    // Through a Result: Swift 6.0's withUnsafeBufferPointer rethrows untyped errors.
    return try groups.withUnsafeBufferPointer { buffer in
      var user = morse_user(
        uid: userID, gid: groupID, groups: buffer.baseAddress, count: buffer.count)
      return Result { () throws(Errno) in try body(&user) }
    }.get()
  }

  /// Whether this process can act with another user's credentials: root with CAP_SETUID and
  /// CAP_SETGID in its effective set (`CapEff` of /proc/self/status). A unit whose
  /// CapabilityBoundingSet leaves them out (the beacon's) cannot, root though it is.
  public static var canActAsAnotherUser: Bool {
    CurrentProcess.effectiveUserID == 0
      && Confinement.hasCapabilities(Confinement.setGroupID, Confinement.setUserID)
  }

  /// "alice (uid 1000)", or "uid 1000" when the name is unknown.
  public var shown: String {
    name.map { "\($0) (uid \(userID))" } ?? "uid \(userID)"
  }
}
