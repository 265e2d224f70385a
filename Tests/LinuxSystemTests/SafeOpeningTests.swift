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

  @Test func rightsFollowTheOwnerThenTheGroupThenEveryone() {
    let member = UserRights(userID: 1000, groupIDs: [1000, 900])
    let ownFile = FileStatus(permissions: 0o600, ownerID: 1000, groupID: 0)
    let groupFile = FileStatus(permissions: 0o664, ownerID: 0, groupID: 900)
    let rootsFile = FileStatus(permissions: 0o644, ownerID: 0, groupID: 0)
    let ownerOnlyRead = FileStatus(permissions: 0o466, ownerID: 1000, groupID: 900)
    #expect(member.mayWrite(ownFile))
    #expect(member.mayWrite(groupFile))
    #expect(!member.mayWrite(rootsFile))
    // As the kernel decides: the owner's bits alone count for the owner.
    #expect(!member.mayWrite(ownerOnlyRead))
    #expect(!member.mayReadAndWrite(FileStatus(permissions: 0o620, ownerID: 0, groupID: 900)))
    #expect(UserRights(userID: 0, groupIDs: []).mayWrite(rootsFile))
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
    #expect(alice.groupIDs == [1000, 990])
    #expect(alice.shown == "alice (uid 1000)")
    let unknown = UserRights.of(userID: 4242, passwordFile: passwd, groupFile: group)
    #expect(unknown.groupIDs.isEmpty)
    #expect(unknown.shown == "uid 4242")
  }
}
