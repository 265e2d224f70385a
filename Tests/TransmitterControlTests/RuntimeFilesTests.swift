import Foundation
import LEDDriver
import LinuxSystem
import MorseCore
import MorseTestSupport
import Testing

@testable import TransmitterControl

@Suite("RuntimeFiles")
struct RuntimeFilesTests {
  @Test(arguments: [
    "x", ".x", ".x.state", "x.state", "a%2Eb", "a.b", "%", "white:flash", "gpio/gpiochip0/17",
    "a%2Fb",
  ])
  func namesRoundTripThroughTheirStems(name: String) {
    let stem = RuntimeFiles.stem(of: name)
    #expect(!stem.contains("."))
    #expect(!stem.contains("/"))
    #expect(RuntimeFiles.name(ofStem: stem) == name)
  }

  @Test func noTwoNamesShareAFile() throws {
    let fixture = try TemporaryLEDDirectory()
    let runtime = try RuntimeDirectory(path: fixture.root + "/run")
    let names = ["x", ".x", ".x.state", "x.state", "x.lock", "a.b", "a%2Eb"]
    var seen: [String: String] = [:]
    for name in names {
      let files = RuntimeFiles(name: name, directory: runtime)
      for path in [files.lock, files.record, files.stopDoor] {
        #expect(seen[path] == nil, "\(name) and \(seen[path] ?? "") share \(path)")
        seen[path] = name
      }
    }
  }

  @Test func removingOneRecordLeavesAnotherNamesFilesAlone() throws {
    let fixture = try TemporaryLEDDirectory()
    let runtime = try RuntimeDirectory(path: fixture.root + "/run")
    let other = RuntimeFiles(name: ".x.state", directory: runtime)
    let saved = SavedLEDState(trigger: "none", brightness: 0, triggerAttributes: []).fields
    try other.writeRecord(
      TransmissionRecord(pid: 1, device: .led(".x.state"), text: "x", totalSymbols: 1, saved: saved))
    _ = try other.openLockFile()
    // Before: `x`'s clean-up removed ".x.state.*", which were the other LED's lock and record.
    RuntimeFiles(name: "x", directory: runtime).removeRecord()
    #expect(FileManager.default.fileExists(atPath: other.record))
    #expect(FileManager.default.fileExists(atPath: other.lock))
    #expect(try Transmissions.devices(in: runtime) == [.led(".x.state")])
  }

  @Test func aFilePlantedWhereTheRecordsCopyWasOnceWrittenDoesNotStopTheRecord() throws {
    let fixture = try TemporaryLEDDirectory()
    let runtime = try RuntimeDirectory(path: fixture.root + "/run")
    let files = RuntimeFiles(name: "led", directory: runtime)
    // The copy was named by the pid alone: a member could plant it (here a directory, which
    // not even root's unlink removes) and no record could be written.
    let planted = runtime.path + "/.led.state.\(CurrentProcess.id)"
    try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: false)
    let saved = SavedLEDState(trigger: "none", brightness: 0, triggerAttributes: []).fields
    try files.writeRecord(
      TransmissionRecord(pid: 1, device: .led("led"), text: "x", totalSymbols: 1, saved: saved))
    #expect(FileManager.default.fileExists(atPath: files.record))
  }
}

