import Foundation
import Glibc
import LEDDriver
import MorseTestSupport
import Testing

@testable import TransmitterControl

/// A file in the shared runtime directory proves only what the kernel says about it: its
/// owner, mode, link count and type. A record is its owner's only if nobody else could have
/// written it, and a record of another user is applied with that user's credentials.
@Suite(
  .enabled(if: getuid() == 0 && MorsetorchProcess.canRunUnprivileged, "needs root and setpriv"))
struct KernelVouchedFactsTests {
  /// The member's way to a root-owned record: she links root's group-writable lock file into
  /// a directory of her own, root removes the name, she writes a record of root's own LED
  /// into her link and renames it in (the sticky bit does not stop a rename to a new name).
  private func plantRecordInRootsLockFile(
    _ fixture: TemporaryLEDDirectory, runtime: String, device: String
  ) throws {
    let sent = try SharedLED.run(
      ["send", "--led", "input3::capslock", "--unit", "1", "E"], fixture, runtime: runtime)
    #expect(sent.exitStatus == 0, "\(sent)")
    let lock = runtime + "/input3::capslock.lock"
    #expect(try SharedLED.asMember("mkdir \(runtime)/own && ln \(lock) \(runtime)/own/x") == 0)
    #expect(unlink(lock) == 0)
    let record = """
      morsetorch state record 2
      pid 99999
      device \(device)
      started 1.0
      text x
      sent 0
      line 1
      saved trigger timer
      saved brightness 0

      """
    let planted = try SharedLED.asMember(
      "printf '%s' '\(record)' > \(runtime)/own/x && mv \(runtime)/own/x \(runtime)/\(device).state"
        + " && : > \(runtime)/\(device).lock")
    #expect(planted == 0)
    let status = try FileManager.default.attributesOfItem(atPath: runtime + "/\(device).state")
    #expect((status[.ownerAccountID] as? NSNumber)?.uint32Value == 0)
  }

  @Test(arguments: [["status"], ["stop"], ["stop", "--led", "input4::numlock"]])
  func aRecordOthersMayWriteRestoresNothingWhoeverOwnsIt(command: [String]) throws {
    let (fixture, runtime) = try SharedLED.make()
    let led = try SharedLED.addRootsOwnLED(fixture)
    try plantRecordInRootsLockFile(fixture, runtime: runtime, device: led)

    let outcome = try SharedLED.run(command, fixture, runtime: runtime)

    // Before: root took the record for its own and wrote the trigger of its LED.
    #expect(try fixture.read("trigger", of: led) == "[none] timer kbd-numlock\n", "\(outcome)")
    #expect(outcome.standardError.contains("does not show who wrote it"), "\(outcome)")
  }

  @Test func rootsSendOnItsLEDIgnoresSuchARecordAndSends() throws {
    let (fixture, runtime) = try SharedLED.make()
    let led = try SharedLED.addRootsOwnLED(fixture)
    try plantRecordInRootsLockFile(fixture, runtime: runtime, device: led)

    let outcome = try SharedLED.run(
      ["send", "--led", led, "--unit", "1", "E"], fixture, runtime: runtime)

    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(try fixture.read("trigger", of: led) == "[none] timer kbd-numlock\n", "\(outcome)")
    #expect(outcome.standardError.contains("does not show who wrote it"), "\(outcome)")
  }

  @Test func aMembersLeftoverIsRestoredAsTheKernelLetsTheMemberNotAsTheModeBitsSay() throws {
    let (fixture, runtime) = try SharedLED.make()
    try fixture.write("[timer]\n", to: "trigger", of: "input3::capslock")
    let delay = fixture.devicePath(of: "input3::capslock") + "/delay_on"
    try fixture.write("500\n", to: "delay_on", of: "input3::capslock")
    chown(delay, 0, SharedLED.member)
    chmod(delay, 0o664)
    // The group's bits let the member write it; an ACL entry for the member does not.
    try AccessControlList.set(delay, owner: 6, group: 6, others: 4, users: [SharedLED.member: 4])
    let saved = SavedLEDState(
      trigger: "timer", brightness: 0, triggerAttributes: [.init(name: "delay_on", content: "70")])
    try SharedLED.plant(saved.fields, name: "input3::capslock", runtime: runtime)

    let outcome = try SharedLED.run(["status"], fixture, runtime: runtime)

    #expect(try fixture.read("delay_on", of: "input3::capslock") == "500\n", "\(outcome)")
    #expect(outcome.standardError.contains("delay_on"), "\(outcome)")
    #expect(outcome.standardError.contains("may not write"), "\(outcome)")
    // What the kernel lets the member write was written.
    #expect(try fixture.read("trigger", of: "input3::capslock") == "timer\n", "\(outcome)")
  }

  /// The member links root's lock-type file `file` (made by root's send with `--wait`) into
  /// a directory of her own; its path.
  private func linkRootsFile(
    _ file: String, _ fixture: TemporaryLEDDirectory, runtime: String
  ) throws -> String {
    let sent = try SharedLED.run(
      ["send", "--wait", "--led", "input3::capslock", "--unit", "1", "E"], fixture,
      runtime: runtime)
    #expect(sent.exitStatus == 0, "\(sent)")
    let path = runtime + "/" + file
    #expect(try SharedLED.asMember("mkdir \(runtime)/own && ln \(path) \(runtime)/own/x") == 0)
    return path
  }

  @Test(arguments: ["input3::capslock.lock", "input3::capslock.tickets"])
  func aLinkToALockFileIsRootsToReplaceNotAnErrorForEveryone(file: String) throws {
    let (fixture, runtime) = try SharedLED.make()
    let path = try linkRootsFile(file, fixture, runtime: runtime)

    // Before: each of these exited 78 for as long as the link was there.
    for command in [
      ["send", "--led", "input3::capslock", "--unit", "1", "E"],
      ["send", "--wait", "--led", "input3::capslock", "--unit", "1", "E"],
    ] {
      let outcome = try SharedLED.run(command, fixture, runtime: runtime)
      #expect(outcome.exitStatus == 0, "\(outcome)")
    }
    let stop = try SharedLED.run(["stop", "--led", "input3::capslock"], fixture, runtime: runtime)
    #expect(stop.exitStatus == 3, "\(stop)")
    var replaced = stat()
    var linked = stat()
    #expect(stat(path, &replaced) == 0 && stat(runtime + "/own/x", &linked) == 0)
    #expect(replaced.st_nlink == 1 && replaced.st_ino != linked.st_ino)
    #expect(replaced.st_uid == 0)
  }

  @Test func aMembersSendOnALockFileLinkedElsewhereSaysWhatIsWrong() throws {
    let (fixture, runtime) = try SharedLED.make()
    let path = try linkRootsFile("input3::capslock.lock", fixture, runtime: runtime)

    let outcome = try MorsetorchProcess.run(
      ["send", "--led", "input3::capslock", "--unit", "1", "E"], ledsDirectory: fixture.ledsPath,
      runtimeDirectory: runtime, launch: .groupMember)

    #expect(outcome.exitStatus == 78, "\(outcome)")
    #expect(outcome.standardError.contains(path), "\(outcome)")
    #expect(outcome.standardError.contains("has 2 links"), "\(outcome)")
    #expect(outcome.standardError.contains("root's next morsetorch"), "\(outcome)")
    // Removing it would leave her link the only one: a file of root's that she may write.
    #expect(!outcome.standardError.contains("remove"), "\(outcome)")
    #expect(try fixture.read("brightness", of: "input3::capslock") == "0\n")
  }

  @Test func aTicketsLockHeldPastItsMomentIsReplacedByRootsWaiter() throws {
    let (fixture, runtime) = try SharedLED.make()
    let holder = try HostileHolder(
      runtime: runtime, name: "input3::capslock", lockSuffix: ".tickets")

    // Before: root's --wait waited for ever, unseen by `stop`.
    let outcome = try SharedLED.run(
      ["send", "--wait", "--led", "input3::capslock", "--unit", "1", "E"], fixture,
      runtime: runtime)

    #expect(outcome.exitStatus == 0, "\(outcome)")
    var status = stat()
    #expect(stat(runtime + "/input3::capslock.tickets", &status) == 0 && status.st_uid == 0)
    withExtendedLifetime(holder) {}
  }

  @Test func aMembersWaitBehindATicketsLockOfNoProcessEndsWithTheDocumentedError() throws {
    let (fixture, runtime) = try SharedLED.make()
    let tickets = runtime + "/input3::capslock.tickets"
    let lock = try #require(OpenFileDescriptionLock(path: tickets))
    defer { withExtendedLifetime(lock) {} }
    chmod(tickets, 0o664)  // as root's own sends make it

    // Before: it waited for ever.
    let outcome = try MorsetorchProcess.run(
      ["send", "--wait", "--led", "input3::capslock", "--unit", "1", "E"],
      ledsDirectory: fixture.ledsPath, runtimeDirectory: runtime, launch: .groupMember,
      timeout: .seconds(20))

    #expect(outcome.exitStatus == 75, "\(outcome)")
    #expect(outcome.standardError.contains(tickets), "\(outcome)")
    #expect(outcome.standardError.contains("open file description lock"), "\(outcome)")
    #expect(try fixture.read("brightness", of: "input3::capslock") == "0\n")
  }

  @Test(arguments: ["input3::capslock.lock", "input3::capslock.tickets"])
  func aSymlinkPlantedForALockFileIsRootsToReplace(file: String) throws {
    let (fixture, runtime) = try SharedLED.make()
    let target = fixture.root + "/precious"
    try Data("keep\n".utf8).write(to: URL(fileURLWithPath: target))
    // Another member's (uid 1234): not hers to replace.
    #expect(symlink(target, runtime + "/" + file) == 0)
    #expect(lchown(runtime + "/" + file, 1234, SharedLED.member) == 0)
    let command = ["send", "--wait", "--led", "input3::capslock", "--unit", "1", "E"]

    let member = try MorsetorchProcess.run(
      command, ledsDirectory: fixture.ledsPath, runtimeDirectory: runtime, launch: .groupMember)
    #expect(member.exitStatus == 78, "\(member)")
    #expect(member.standardError.contains("a symbolic link that user 1234 put there"))
    #expect(!member.standardError.contains("MORSETORCH_RUNTIME_DIR"), "\(member)")
    // Before: root's send failed (78, ELOOP) and was told to use another runtime directory.
    let root = try SharedLED.run(command, fixture, runtime: runtime)
    #expect(root.exitStatus == 0, "\(root)")
    #expect(try String(contentsOfFile: target) == "keep\n")
    var status = stat()
    #expect(lstat(runtime + "/" + file, &status) == 0 && status.st_mode & S_IFMT == S_IFREG)
  }

  @Test func aMemberIsToldThatAnotherUsersLeftoverIsRootsOrTheirsToRestore() throws {
    let (fixture, runtime) = try SharedLED.make()
    try fixture.write("[none] timer kbd-capslock\n", to: "trigger", of: "input3::capslock")
    let saved = SavedLEDState(trigger: "timer", brightness: 0, triggerAttributes: [])
    let record = try SharedLED.plant(
      saved.fields, name: "input3::capslock", runtime: runtime, owner: 1234)
    chown(runtime + "/input3::capslock.lock", 1234, SharedLED.member)  // the group's to lock

    let outcome = try MorsetorchProcess.run(
      ["send", "--led", "input3::capslock", "--unit", "1", "E"], ledsDirectory: fixture.ledsPath,
      runtimeDirectory: runtime, launch: .groupMember)

    // Before: each setting was retried for a second, skipped, the record removed and the LED's
    // state before the killed send lost.
    #expect(outcome.exitStatus == 75, "\(outcome)")
    #expect(outcome.standardError.contains("or user 1234 may restore it"), "\(outcome)")
    #expect(FileManager.default.fileExists(atPath: record))
    #expect(try fixture.read("trigger", of: "input3::capslock") == "[none] timer kbd-capslock\n")
  }

  @Test(arguments: ["input3::capslock.lock", "input3::capslock.state"])
  func aDirectoryPlantedForAFileOfTheDeviceIsMovedAsideByRootsSend(file: String) throws {
    let (fixture, runtime) = try SharedLED.make()
    #expect(try SharedLED.asMember("mkdir \(runtime)/\(file) && touch \(runtime)/\(file)/x") == 0)

    // Before: root's send failed (cannot open or write the file) for as long as it was there.
    let outcome = try SharedLED.run(
      ["send", "--led", "input3::capslock", "--unit", "1", "E"], fixture, runtime: runtime)

    #expect(outcome.exitStatus == 0, "\(outcome)")
    let entries = try FileManager.default.contentsOfDirectory(atPath: runtime)
    #expect(entries.contains { $0.hasPrefix(".input3::capslock.aside.") }, "\(entries)")
    #expect(try fixture.read("brightness", of: "input3::capslock") == "0\n")
  }

  @Test func rootWithoutTheRightToActAsAnotherUserLeavesTheirLeftoverForSomeoneWhoCan() throws {
    let (fixture, runtime) = try SharedLED.make()
    try fixture.write("[none] timer kbd-capslock\n", to: "trigger", of: "input3::capslock")
    let saved = SavedLEDState(trigger: "timer", brightness: 0, triggerAttributes: [])
    let record = try SharedLED.plant(saved.fields, name: "input3::capslock", runtime: runtime)

    // As the beacon's unit runs root: CAP_SETUID and CAP_SETGID out of its bounding set.
    let outcome = try MorsetorchProcess.run(
      ["stop", "--led", "input3::capslock"], ledsDirectory: fixture.ledsPath,
      runtimeDirectory: runtime,
      launch: .shell("exec setpriv --bounding-set=-setuid,-setgid -- \"$0\" \"$@\""))

    // Before this rule: each setting retried as the member for a second, then skipped.
    #expect(outcome.exitStatus == 75, "\(outcome)")
    #expect(outcome.standardError.contains("with CAP_SETUID and CAP_SETGID"), "\(outcome)")
    #expect(FileManager.default.fileExists(atPath: record))
    #expect(try fixture.read("trigger", of: "input3::capslock") == "[none] timer kbd-capslock\n")
  }
}
