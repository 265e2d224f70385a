import Foundation
import Glibc
import LEDDriver
import DeviceContract
import MorseTestSupport
import Testing

@testable import GPIODriver
@testable import TransmitterControl

/// The shared runtime directory as a trust boundary: a member of the LED group (here `nobody`,
/// uid and gid 65534, whose group the directory and the LED's files belong to, as the
/// package's tmpfiles line and udev rule make them) plants records, locks, links and FIFOs,
/// and root's ordinary commands must neither write for them what they could not, nor hang,
/// nor crash.
@Suite(
  .enabled(if: getuid() == 0 && MorsetorchProcess.canRunUnprivileged, "needs root and setpriv"))
struct SharedDirectoryAttackTests {
  static let member: UInt32 = 65_534

  private func sharedLED() throws -> (TemporaryLEDDirectory, runtime: String) {
    try SharedLED.make()
  }

  @discardableResult
  private func plant(
    _ saved: SavedFields, name: String, runtime: String, owner: UInt32 = member
  ) throws -> String {
    try SharedLED.plant(saved, name: name, runtime: runtime, owner: owner)
  }

  private func run(
    _ arguments: [String], _ fixture: TemporaryLEDDirectory, runtime: String,
    environment: [String: String] = [:]
  ) throws -> MorsetorchProcess.Outcome {
    try SharedLED.run(arguments, fixture, runtime: runtime, environment: environment)
  }

  @Test(arguments: [
    ["status"], ["stop", "--led", "input3::capslock"], ["send", "--led", "input3::capslock", "E"],
  ])
  func rootNeverWritesWhatAPlantedRecordNamesAndItsWriterMayNot(command: [String]) throws {
    let (fixture, runtime) = try sharedLED()
    let saved = SavedLEDState(
      trigger: "timer", brightness: 0,
      triggerAttributes: [
        .init(name: "power/control", content: "on"), .init(name: "device/inhibited", content: "1"),
        .init(name: "delay_on", content: "7"),
      ])
    // `delay_on` is a setting of timer, but root's alone: the member may not write it.
    try fixture.write("500\n", to: "delay_on", of: "input3::capslock")
    try plant(saved.fields, name: "input3::capslock", runtime: runtime)

    let outcome = try run(command, fixture, runtime: runtime)

    #expect(try fixture.read("power/control", of: "input3::capslock") == "auto\n", "\(outcome)")
    let inhibited = try String(contentsOfFile: fixture.root + "/devices/input3/inhibited")
    #expect(inhibited == "0\n", "\(outcome)")
    #expect(try fixture.read("delay_on", of: "input3::capslock") == "500\n", "\(outcome)")
    #expect(outcome.standardError.contains("power/control"), "\(outcome)")
    #expect(outcome.standardError.contains("may not write"), "\(outcome)")
    // What the member may write was done: the trigger is the record's, the LED usable again.
    #expect(command[0] == "send" || outcome.exitStatus == 0, "\(outcome)")
    #expect(!FileManager.default.fileExists(atPath: runtime + "/input3::capslock.state"))
  }

  @Test func aMembersOwnLeftoverIsRestoredByRootWithTheMembersRights() throws {
    let (fixture, runtime) = try sharedLED()
    try fixture.write("[timer]\n", to: "trigger", of: "input3::capslock")
    let saved = SavedLEDState(
      trigger: "timer", brightness: 0,
      triggerAttributes: [.init(name: "delay_on", content: "70")])
    try fixture.write("500\n", to: "delay_on", of: "input3::capslock")
    chown(fixture.devicePath(of: "input3::capslock") + "/delay_on", 0, Self.member)
    chmod(fixture.devicePath(of: "input3::capslock") + "/delay_on", 0o664)
    try plant(saved.fields, name: "input3::capslock", runtime: runtime)

    let outcome = try run(["status"], fixture, runtime: runtime)

    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(try fixture.read("delay_on", of: "input3::capslock") == "70\n", "\(outcome)")
    #expect(try fixture.read("trigger", of: "input3::capslock") == "timer\n", "\(outcome)")
    // The pid is only what the record says; whose record it was is known for sure.
    #expect(
      outcome.standardError.contains("morsetorch pid 99999 of user 65534 (killed"), "\(outcome)")
  }

  @Test(arguments: ["directory", "fifo"])
  func aPlantedGPIORecordNeverOpensWhatItNamesAsAChip(kind: String) throws {
    let (fixture, runtime) = try sharedLED()
    let gpio = fixture.root + "/dev"
    try FileManager.default.createDirectory(atPath: gpio, withIntermediateDirectories: true)
    // A root-only file the member wants truncated, behind a chip of their own making.
    let secret = fixture.root + "/secret"
    try Data("root only\n".utf8).write(to: URL(fileURLWithPath: secret))
    chmod(secret, 0o600)
    let chip = fixture.root + "/member-chip"
    if kind == "fifo" {
      mkfifo(chip, 0o666)
    } else {
      try FileManager.default.createDirectory(
        atPath: chip + "/line3", withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: chip + "/line3/value", withDestinationPath: secret)
      try Data("8\n".utf8).write(to: URL(fileURLWithPath: chip + "/lines"))
    }
    let name = "gpio/gpiochip0/3"
    try plant(
      SavedGPIOLine(chip: chip, offset: 3, isActiveLow: false).fields, name: name,
      runtime: runtime)

    let outcome = try run(
      ["status"], fixture, runtime: runtime, environment: ["MORSETORCH_GPIO_DIR": gpio])

    #expect(outcome.exitStatus != nil, "\(outcome)")
    #expect(try String(contentsOfFile: secret) == "root only\n", "\(outcome)")
  }

  @Test(arguments: [
    ["send", "--led", "input3::capslock", "E"],
    ["send", "--replace", "--led", "input3::capslock", "E"],
    ["stop", "--led", "input3::capslock"], ["status", "--led", "input3::capslock"],
    // Before: waited with no end and no word, for a turn that could never come.
    ["send", "--wait", "--led", "input3::capslock", "E"],
  ])
  func aLockHeldByNoProcessIsAnErrorNamingTheLockFile(command: [String]) throws {
    let (fixture, runtime) = try sharedLED()
    let path = runtime + "/input3::capslock.lock"
    let lock = try #require(OpenFileDescriptionLock(path: path))
    defer { withExtendedLifetime(lock) {} }

    let outcome = try run(command, fixture, runtime: runtime)

    #expect(outcome.exitStatus == 75, "\(outcome)")
    #expect(outcome.standardError.contains(path), "\(outcome)")
    #expect(try fixture.read("brightness", of: "input3::capslock") == "0\n")
  }

  @Test func aTicketLockedByNoProcessNeitherHidesNorShieldsTheSender() throws {
    let (fixture, runtime) = try sharedLED()
    let sender = try MorsetorchProcess(
      ["send", "--led", "input3::capslock", "--unit", "300", "TTTTT"],
      ledsDirectory: fixture.ledsPath, runtimeDirectory: runtime)
    sender.closeInput()
    #expect(try eventually { try fixture.read("brightness", of: "input3::capslock") != "0\n" })
    // Before: status, stop and a rerun all exited 75, and the sender went on.
    let ticket = runtime + "/input3::capslock.wait.00000000000000000001"
    let lock = try #require(OpenFileDescriptionLock(path: ticket))
    defer { withExtendedLifetime(lock) {} }
    let status = try run(["status"], fixture, runtime: runtime)
    #expect(status.exitStatus == 0, "\(status)")
    #expect(status.standardOutput.contains("input3::capslock"), "\(status)")
    let stop = try run(["stop", "--led", "input3::capslock"], fixture, runtime: runtime)
    #expect(stop.exitStatus == 0, "\(stop)")
    #expect(try sender.wait().exitStatus == 143)
  }

  /// A member's send on a lock file another member made beforehand (uid 1234, the group's
  /// to write), which that member then renames to `newName` while the send runs.
  private func sendOnALockFileMovedAway(to newName: String) throws
    -> (TemporaryLEDDirectory, runtime: String, sender: MorsetorchProcess)
  {
    let (fixture, runtime) = try sharedLED()
    let lock = runtime + "/input3::capslock.lock"
    try Data().write(to: URL(fileURLWithPath: lock))
    chown(lock, 1234, Self.member)
    chmod(lock, 0o664)
    let sender = try MorsetorchProcess(
      ["send", "--led", "input3::capslock", "--unit", "300", "TTTTT"],
      ledsDirectory: fixture.ledsPath, runtimeDirectory: runtime, launch: .groupMember)
    sender.closeInput()
    #expect(try eventually { try fixture.read("brightness", of: "input3::capslock") != "0\n" })
    #expect(rename(lock, runtime + "/" + newName) == 0)
    return (fixture, runtime, sender)
  }

  @Test func aLockFileMovedAwayFromARunningSendIsNotTakenForALeftover() throws {
    let (fixture, runtime, sender) = try sendOnALockFileMovedAway(to: "junk")
    // Before: root took the device for free, "restored" it from the running send's record
    // (removing it) and sent at the same time.
    let outcome = try run(
      ["send", "--led", "input3::capslock", "--unit", "1", "E"], fixture, runtime: runtime)
    #expect(outcome.exitStatus == 75, "\(outcome)")
    #expect(outcome.standardError.contains("is no longer"), "\(outcome)")
    #expect(FileManager.default.fileExists(atPath: runtime + "/input3::capslock.state"))
    sender.send(signal: SIGTERM)
    #expect(try sender.wait().exitStatus == 143)
  }

  @Test func aLockFileRenamedAsAnotherDevicesTicketDoesNotHaveItsHolderStopped() throws {
    let (fixture, runtime, sender) = try sendOnALockFileMovedAway(
      to: "input4::numlock.wait.00000000000000000001")
    try fixture.addLED("input4::numlock", trigger: "[none] timer")
    // Before: `stop` on the other LED stopped this send, "a sender waiting for" it.
    let stop = try run(["stop", "--led", "input4::numlock"], fixture, runtime: runtime)
    #expect(!stop.standardError.contains("waiting"), "\(stop)")
    #expect(sender.isRunning, "\(stop)")
    sender.send(signal: SIGTERM)
    #expect(try sender.wait().exitStatus == 143)
  }

  @Test func aLockFileTheGroupMayNotWriteIsNamedWithItsOwnerAndMode() throws {
    let (fixture, runtime) = try sharedLED()
    // Another user's lock file that the group may not write (made so, or before the
    // directory was shared): the member cannot lock it, and is told why rather than to use
    // another runtime directory.
    let lock = runtime + "/input3::capslock.lock"
    try Data().write(to: URL(fileURLWithPath: lock))
    chmod(lock, 0o644)
    let before = try LEDSnapshot(of: "input3::capslock", in: fixture)
    let outcome = try MorsetorchProcess.run(
      ["send", "--led", "input3::capslock", "--unit", "1", "E"], ledsDirectory: fixture.ledsPath,
      launch: .groupMember)
    #expect(outcome.exitStatus == 78, "\(outcome)")
    #expect(
      outcome.standardError.contains("belongs to user 0 and has mode 0644"), "\(outcome)")
    #expect(!outcome.standardError.contains("MORSETORCH_RUNTIME_DIR"), "\(outcome)")
    #expect(try LEDSnapshot(of: "input3::capslock", in: fixture) == before)
    // Root's own lock file as it makes it (0664) is the member's to lock.
    chmod(lock, 0o664)
    let sent = try MorsetorchProcess.run(
      ["send", "--led", "input3::capslock", "--unit", "1", "E"], ledsDirectory: fixture.ledsPath,
      launch: .groupMember)
    #expect(sent.exitStatus == 0, "\(sent)")
  }

  @Test func aGroupWritableRuntimeDirectoryMustBeSticky() throws {
    let (fixture, runtime) = try sharedLED()
    chmod(runtime, 0o2770)
    let outcome = try run(["send", "--led", "input3::capslock", "E"], fixture, runtime: runtime)
    #expect(outcome.exitStatus == 78, "\(outcome)")
    #expect(outcome.standardError.contains("sticky"), "\(outcome)")
  }

  @Test func rootTakesOverAMembersLockFileSoTheMemberCannotRemoveItWhileRootSends() throws {
    let (fixture, runtime) = try sharedLED()
    let lock = runtime + "/input3::capslock.lock"
    let descriptor = open(lock, O_RDWR | O_CREAT, 0o664)
    close(descriptor)
    chown(lock, Self.member, Self.member)
    let send = try MorsetorchProcess(
      ["send", "--led", "input3::capslock", "--wpm", "5", "PARIS"],
      ledsDirectory: fixture.ledsPath, runtimeDirectory: runtime)
    defer { send.send(signal: SIGKILL) }
    // Claimed once its record is there (polled: it is what the child shows).
    let shown = ContinuousClock.now + .seconds(10)
    while !FileManager.default.fileExists(atPath: runtime + "/input3::capslock.state"),
      ContinuousClock.now < shown
    {
      Thread.sleep(forTimeInterval: 0.01)
    }
    let status = try FileManager.default.attributesOfItem(atPath: lock)
    #expect((status[.ownerAccountID] as? NSNumber)?.uint32Value == 0)
    let removal = Process()
    removal.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
    removal.arguments = [
      "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/rm", "-f", lock,
    ]
    removal.standardError = FileHandle.nullDevice
    try removal.run()
    removal.waitUntilExit()
    #expect(removal.terminationStatus != 0)
    #expect(FileManager.default.fileExists(atPath: lock))
  }

  @Test func aSettingThatWentAwayIsSkippedWithAWarningAndTheRestRestored() throws {
    let (fixture, runtime) = try sharedLED()
    try fixture.write("[none] usbport\n", to: "trigger", of: "input3::capslock")
    let saved = SavedLEDState(
      trigger: "usbport", brightness: 0,
      triggerAttributes: [.init(name: "ports/1-1", content: "1")])
    let record = try plant(saved.fields, name: "input3::capslock", runtime: runtime, owner: 0)

    let outcome = try run(["status"], fixture, runtime: runtime)

    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.contains("ports/1-1"), "\(outcome)")
    #expect(outcome.standardError.contains("no longer exists"), "\(outcome)")
    #expect(try fixture.read("trigger", of: "input3::capslock") == "usbport\n")
    #expect(!FileManager.default.fileExists(atPath: record))
    let again = try run(["send", "--led", "input3::capslock", "E"], fixture, runtime: runtime)
    #expect(again.exitStatus == 0, "\(again)")
  }

  @Test func aFailedRestoreKeepsTheRecordAndSaysWhatFailed() throws {
    let (fixture, runtime) = try sharedLED()
    // A trigger this kernel no longer has: the write fails (here, `trigger` is a directory).
    let trigger = fixture.devicePath(of: "input3::capslock") + "/trigger"
    try FileManager.default.removeItem(atPath: trigger)
    try FileManager.default.createDirectory(atPath: trigger, withIntermediateDirectories: false)
    let saved = SavedLEDState(trigger: "timer", brightness: 0, triggerAttributes: [])
    let record = try plant(saved.fields, name: "input3::capslock", runtime: runtime, owner: 0)

    let outcome = try run(["stop", "--led", "input3::capslock"], fixture, runtime: runtime)

    #expect(outcome.standardError.contains("/trigger: Is a directory"), "\(outcome)")
    #expect(outcome.exitStatus == 74, "\(outcome)")
    #expect(!outcome.standardError.contains("restored LED"), "\(outcome)")
    #expect(FileManager.default.fileExists(atPath: record))
  }

  @Test func aFailedClaimLeavesNoStopSocket() throws {
    let (fixture, runtime) = try sharedLED()
    try fixture.write("many\n", to: "max_brightness", of: "input3::capslock")
    let outcome = try run(["send", "--led", "input3::capslock", "E"], fixture, runtime: runtime)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    let left = try FileManager.default.contentsOfDirectory(atPath: runtime)
    #expect(!left.contains { $0.hasSuffix(".stop") || $0.hasSuffix(".state") }, "\(left)")
  }

  @Test func aMemberWhoCannotReadTheDirectoryIsToldSoNotThatNothingIsSent() throws {
    let (fixture, runtime) = try sharedLED()
    chmod(runtime, 0o3730)
    let outcome = try MorsetorchProcess.run(
      ["status"], ledsDirectory: fixture.ledsPath, runtimeDirectory: runtime,
      launch: .groupMember)
    #expect(outcome.exitStatus == 78, "\(outcome)")
    #expect(outcome.standardError.contains("Permission denied"), "\(outcome)")
  }

  @Test func aNameTooLongForTheRuntimeFilesIsRefusedPlainly() throws {
    let (fixture, runtime) = try sharedLED()
    let name = String(repeating: "l", count: 240)
    try fixture.addLED(name)
    let outcome = try run(["send", "--led", name, "E"], fixture, runtime: runtime)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains("too long"), "\(outcome)")
  }
}
