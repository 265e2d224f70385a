import Foundation
import Glibc
import MorseTestSupport
import Testing

extension RerunTests {
  @Test func aPlantedTicketWithTheLargestNumberNeitherCrashesNorStopsAWait() throws {
    let fixture = try fixture()
    let directory = runtimeDirectory(of: fixture)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o700)
    // Int.max: counting on from it overflowed (a crash of every --wait sender, root's too).
    let huge = directory + "/" + led + ".wait.09223372036854775807"
    try Data().write(to: URL(fileURLWithPath: huge))
    let sent = try run(["send", "--wait", "--led", led, "--unit", "1", "E"], in: fixture)
    #expect(sent.exitStatus == 0, "\(sent)")
    try expectTimerRestored(fixture)
    // The largest number a ticket may have: no ticket can follow it, which is said plainly.
    try FileManager.default.removeItem(atPath: huge)
    let largest = directory + "/" + led + ".wait.00999999999999999999"
    try Data().write(to: URL(fileURLWithPath: largest))
    let before = try LEDSnapshot(of: led, in: fixture)
    let refused = try run(["send", "--wait", "--led", led, "--unit", "1", "E"], in: fixture)
    #expect(refused.exitStatus == 78, "\(refused)")
    #expect(refused.standardError.contains("no ticket may follow its number"), "\(refused)")
    #expect(try LEDSnapshot(of: led, in: fixture) == before)
  }

  @Test(arguments: [".state", ".lock", ".wait.00000000000000000001"])
  func aFIFOPlantedInTheRuntimeDirectoryNeverHangs(suffix: String) throws {
    let fixture = try fixture()
    let directory = runtimeDirectory(of: fixture)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o700)
    #expect(mkfifo(directory + "/" + led + suffix, 0o600) == 0)
    // Before: each of these blocked forever in open(2) (the test's timeout would end it).
    for command in [
      ["status", "--led", led], ["stop", "--led", led], ["send", "--led", led, "E"],
    ] {
      let outcome = try MorsetorchProcess.run(
        command, ledsDirectory: fixture.ledsPath, timeout: .seconds(20))
      #expect(outcome.exitStatus != nil, "\(command): \(outcome)")
      guard command[0] == "send" else { continue }
      if suffix == ".lock" {
        // Root's to replace: a plain file of its own takes its place, and the send goes on.
        #expect(outcome.exitStatus == 0, "\(outcome)")
        var status = stat()
        #expect(stat(directory + "/" + led + suffix, &status) == 0)
        #expect(status.st_mode & S_IFMT == S_IFREG)
        try expectTimerRestored(fixture)
      } else {
        // Sent on and restored; a record in the way is reported as unusable and removed.
        #expect(outcome.exitStatus == 0, "\(outcome)")
        if suffix == ".state" {
          #expect(outcome.standardError.contains("ignoring the state record"), "\(outcome)")
        }
        try expectTimerRestored(fixture)
      }
    }
  }

  @Test func aSymlinkPlantedAsTheLockIsReplacedNeverFollowed() throws {
    let fixture = try fixture()
    let directory = runtimeDirectory(of: fixture)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let target = fixture.root + "/victim"
    try "precious\n".write(toFile: target, atomically: false, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: directory + "/\(led).lock", withDestinationPath: target)
    let outcome = try run(["send", "--led", led, "--unit", "1", "E"], in: fixture)
    // Its owner's (here this user's) to replace: a plain file takes the link's place.
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
    let replaced = try FileManager.default.attributesOfItem(atPath: directory + "/\(led).lock")
    #expect(replaced[.type] as? FileAttributeType == .typeRegular)
    try expectTimerRestored(fixture)
  }

  @Test func aRuntimeDirectoryEveryoneMayWriteIsRefused() throws {
    let fixture = try fixture()
    let directory = fixture.root + "/open"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    chmod(directory, 0o1777)
    let outcome = try MorsetorchProcess.run(
      ["send", "--led", led, "--unit", "1", "E"], ledsDirectory: fixture.ledsPath,
      runtimeDirectory: directory)
    #expect(outcome.exitStatus == 78, "\(outcome)")
    #expect(outcome.standardError.contains("everyone may write"), "\(outcome)")
    #expect(try fixture.read("trigger", of: led) == "none [timer] heartbeat\n")
  }

  @Test func aSymlinkedRuntimeDirectoryIsRefused() throws {
    let fixture = try fixture()
    let real = fixture.root + "/real"
    try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: fixture.root + "/link", withDestinationPath: real)
    let outcome = try MorsetorchProcess.run(
      ["status"], ledsDirectory: fixture.ledsPath, runtimeDirectory: fixture.root + "/link")
    #expect(outcome.exitStatus == 78, "\(outcome)")
  }
}
