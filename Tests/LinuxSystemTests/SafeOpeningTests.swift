import Foundation
import MorseTestSupport
import Testing

@testable import LinuxSystem

/// Opening beneath a directory with no symlink followed, the checked write, and whose rights a
/// file's bits grant: what keeps a planted record from reaching past the LED's directory.
@Suite("Opening beneath a directory, and user rights")
struct SafeOpeningTests {
  /// A directory `led` with `ports/1-1`, a link to a file outside and a link to its parent.
  private func tree() throws -> TemporaryLEDDirectory {
    let fixture = try TemporaryLEDDirectory()
    let base = fixture.root + "/led"
    try FileManager.default.createDirectory(
      atPath: base + "/ports", withIntermediateDirectories: true)
    try Data("1\n".utf8).write(to: URL(fileURLWithPath: base + "/ports/1-1"))
    try Data("secret\n".utf8).write(to: URL(fileURLWithPath: fixture.root + "/outside"))
    try FileManager.default.createSymbolicLink(
      atPath: base + "/link", withDestinationPath: fixture.root + "/outside")
    try FileManager.default.createSymbolicLink(
      atPath: base + "/device", withDestinationPath: fixture.root)
    return fixture
  }

  private func open(_ fixture: TemporaryLEDDirectory) throws -> FileDescriptor {
    try FileDescriptor.open(fixture.root + "/led", [.readOnly, .directory])
  }

  @Test func aFileOneDirectoryDownOpens() throws {
    let fixture = try tree()
    let directory = try open(fixture)
    let file = try directory.open(beneath: "ports/1-1", .readOnly)
    #expect(try file.readAll() == Array("1\n".utf8))
  }

  @Test(arguments: ["link", "device/outside", "../outside", "/etc/passwd", "ports/../link", ""])
  func noPathLeavesTheDirectoryOrCrossesALink(path: String) throws {
    let fixture = try tree()
    let directory = try open(fixture)
    #expect(throws: Errno.self) { _ = try directory.open(beneath: path, .writeOnly) }
    #expect(try String(contentsOfFile: fixture.root + "/outside") == "secret\n")
  }

  @Test func aFailedWriteIsReportedNotSwallowed() throws {
    // The kernel refuses a value that is no number here with EINVAL, as sysfs refuses the
    // trigger of an unloaded module.
    #expect(throws: Errno.invalidArgument) {
      try FileSystem.replaceFile("/proc/self/oom_score_adj", with: Array("usbport\n".utf8))
    }
  }

  /// Files of every kind of right for user 1000 (groups 1000 and 900), in a directory of
  /// their own; the last has mode bits that let group 900 write it and an ACL that does not let
  /// user 1000.
  private func filesOfEveryRight() throws -> (TemporaryLEDDirectory, directory: String) {
    let fixture = try TemporaryLEDDirectory()
    let base = fixture.root + "/rights"
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    chmod(base, 0o755)
    let files: [(String, mode_t, uid_t, gid_t)] = [
      ("own", 0o600, 1000, 0), ("group", 0o664, 0, 900), ("roots", 0o644, 0, 0),
      ("ownerOnlyRead", 0o466, 1000, 900), ("deniedByACL", 0o664, 0, 900),
    ]
    for (name, mode, owner, group) in files {
      try Data("0\n".utf8).write(to: URL(fileURLWithPath: base + "/" + name))
      chown(base + "/" + name, owner, group)
      chmod(base + "/" + name, mode)
    }
    try AccessControlList.set(
      base + "/deniedByACL", owner: 6, group: 6, others: 4, users: [1000: 0])
    return (fixture, base)
  }

  @Test(.enabled(if: getuid() == 0, "acts as another user: needs root"))
  func theKernelDecidesWhatAnotherUserMayOpenNotTheModeBits() throws {
    let (fixture, base) = try filesOfEveryRight()
    let directory = try FileDescriptor.open(base, [.readOnly, .directory])
    let member = UserRights(userID: 1000, groupID: 1000, groupIDs: [900])
    let mayWrite = { (name: String) -> Bool in
      (try? member.open(beneath: name, in: directory, .writeOnly)) != nil
    }
    #expect(mayWrite("own"))
    #expect(mayWrite("group"))
    #expect(!mayWrite("roots"))
    // The owner's bits alone count for the owner.
    #expect(!mayWrite("ownerOnlyRead"))
    #expect(!mayWrite("deniedByACL"))
    #expect(try member.mayReadAndWrite(base + "/group"))
    #expect(try member.mayReadAndWrite(base + "/own"))
    // Checked with the member's file-system IDs, not root's real ones.
    #expect(try !member.mayReadAndWrite(base + "/roots"))
    #expect(try !member.mayReadAndWrite(base + "/deniedByACL"))
    // Only the thread that acted for her had her rights: root's own are whole.
    #expect(getuid() == 0 && geteuid() == 0)
    let rootMayWrite = (try? directory.open(beneath: "roots", .writeOnly)) != nil
    #expect(rootMayWrite)
    withExtendedLifetime(fixture) {}
  }

  @Test func aUserTheDatabasesDoNotListMayOpenNothing() throws {
    let (fixture, base) = try filesOfEveryRight()
    let directory = try FileDescriptor.open(base, [.readOnly, .directory])
    let unknown = UserRights(userID: 4242, groupID: nil, groupIDs: [])
    #expect(throws: Errno.permissionDenied) {
      _ = try unknown.open(beneath: "group", in: directory, .writeOnly)
    }
    #expect(try !unknown.mayReadAndWrite(base + "/group"))
    withExtendedLifetime(fixture) {}
  }

  @Test func rightsAreReadFromThePasswordAndGroupFiles() throws {
    let fixture = try TemporaryLEDDirectory()
    let passwd = fixture.root + "/passwd"
    let group = fixture.root + "/group"
    try Data("root:x:0:0::/root:/bin/sh\nalice:x:1000:1000::/home/alice:/bin/sh\n".utf8)
      .write(to: URL(fileURLWithPath: passwd))
    try Data("root:x:0:\nleds:x:990:bob,alice\nvideo:x:44:bob\nalice:x:1000:\n".utf8)
      .write(to: URL(fileURLWithPath: group))
    let alice = UserRights.of(userID: 1000, passwordFile: passwd, groupFile: group)
    #expect(alice.name == "alice")
    #expect(alice.groupID == 1000)
    #expect(alice.groupIDs == [1000, 990])
    #expect(alice.shown == "alice (uid 1000)")
    let unknown = UserRights.of(userID: 4242, passwordFile: passwd, groupFile: group)
    #expect(unknown.groupID == nil)
    #expect(unknown.groupIDs.isEmpty)
    #expect(unknown.shown == "uid 4242")
  }
}
