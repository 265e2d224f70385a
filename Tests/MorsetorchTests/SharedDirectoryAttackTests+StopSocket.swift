import Foundation
import Glibc
import MorseTestSupport
import Testing

extension SharedDirectoryAttackTests {
  /// A directory planted as the device's stop socket: a sender that may (root, or its owner)
  /// moves it aside and listens there, so that another member's `stop` still stops it.
  @Test func aDirectoryPlantedAsTheStopSocketIsMovedAsideByRoot() throws {
    let (fixture, runtime) = try SharedLED.make()
    let planted = runtime + "/input3::capslock.stop"
    try FileManager.default.createDirectory(
      atPath: planted + "/inside", withIntermediateDirectories: true)
    chown(planted, SharedLED.member, SharedLED.member)
    let sender = try MorsetorchProcess(
      ["send", "--led", "input3::capslock", "--unit", "300", "TTTTT"],
      ledsDirectory: fixture.ledsPath, runtimeDirectory: runtime)
    sender.closeInput()
    defer { sender.send(signal: SIGKILL) }
    #expect(try eventually { try fixture.read("brightness", of: "input3::capslock") != "0\n" })

    // Before: root's sender had no socket, and the member's stop failed with 75.
    let stop = try MorsetorchProcess.run(
      ["stop", "--led", "input3::capslock"], ledsDirectory: fixture.ledsPath,
      launch: .groupMember)
    #expect(stop.exitStatus == 0, "\(stop)")
    let outcome = try sender.wait()
    #expect(outcome.exitStatus == 143, "\(outcome)")
    #expect(!outcome.standardError.contains("stop socket"), "\(outcome)")
    #expect(try fixture.read("brightness", of: "input3::capslock") == "0\n")
    let left = try FileManager.default.contentsOfDirectory(atPath: runtime)
    #expect(left.contains { $0.hasPrefix(".input3::capslock.aside.") }, "\(left)")
  }

  /// One that the sender may not move (another member's, in the sticky directory): it sends,
  /// and says that other users' `stop` cannot reach it.
  @Test func aStopSocketThatCannotBeMadeIsSaid() throws {
    let (fixture, runtime) = try SharedLED.make()
    let planted = runtime + "/input3::capslock.stop"
    try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: false)
    chown(planted, 1234, SharedLED.member)
    let outcome = try MorsetorchProcess.run(
      ["send", "--led", "input3::capslock", "--unit", "1", "E"], ledsDirectory: fixture.ledsPath,
      launch: .groupMember)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(
      outcome.standardError.contains("warning: cannot make the stop socket \(planted)"),
      "\(outcome)")
    #expect(outcome.standardError.contains("other users cannot stop"), "\(outcome)")
  }
}
