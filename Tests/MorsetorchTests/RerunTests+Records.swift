import Foundation
import Glibc
import MorseTestSupport
import Testing

extension RerunTests {
  @Test(
    .enabled(
      if: getuid() == 0 && MorsetorchProcess.canRunUnprivileged, "needs root to run a second user"))
  func aRestoreThatFailsKeepsTheRecordAndEveryNextRunSaysWhatToDo() throws {
    let fixture = try fixture()
    for attribute in ["brightness", "trigger", "delay_on", "delay_off"] {
      try fixture.setPermissions(0o666, of: attribute, of: led)
    }
    let asNobody = { (words: [String]) in
      try MorsetorchProcess.run(words, ledsDirectory: fixture.ledsPath, launch: .unprivileged)
    }
    let sender = try MorsetorchProcess(
      ["send", "--led", led, "--unit", "300", "TT"], ledsDirectory: fixture.ledsPath,
      launch: .unprivileged)
    sender.closeInput()
    let isOn = try eventually { try fixture.read("brightness", of: led) != "0\n" }
    try #require(isOn, "the transmission never switched the LED on")
    // Claimed; now the timer's own settings may no longer be written back.
    try fixture.setPermissions(0o644, of: "delay_on", of: led)
    try fixture.setPermissions(0o644, of: "delay_off", of: led)
    let first = try sender.wait()
    #expect(first.exitStatus == 77, "\(first)")
    #expect(first.standardError.contains("is kept in"), "\(first)")
    // Before: the record was deleted, and with it the only copy of the timer's settings.
    let record = runtimeDirectory(of: fixture) + "/\(led).state"
    #expect(FileManager.default.fileExists(atPath: record))
    // A send is refused before it reserves anything: it names the file it may not write.
    let second = try asNobody(["send", "--led", led, "--unit", "1", "E"])
    #expect(second.exitStatus == 77, "\(second)")
    #expect(second.standardError.contains(fixture.ledPath(of: led) + "/delay_on"), "\(second)")
    let status = try asNobody(["status"])
    #expect(status.standardError.contains("left claimed by"), "\(status)")
    #expect(status.standardError.contains(record), "\(status)")
    try fixture.setPermissions(0o666, of: "delay_on", of: led)
    try fixture.setPermissions(0o666, of: "delay_off", of: led)
    let stop = try asNobody(["stop", "--led", led])
    #expect(stop.exitStatus == 0, "\(stop)")
    #expect(stop.standardError.contains("restored LED"), "\(stop)")
    try expectTimerRestored(fixture)
    #expect(!FileManager.default.fileExists(atPath: record))
  }

  @Test func theNextRunRestoresAnLEDLeftByAKilledTransmitter() throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture)
    first.send(signal: SIGKILL)
    _ = try first.wait()
    // Killed: it could restore nothing.
    #expect(try fixture.read("trigger", of: led) == "none\n")
    // Its record is left (and, if it was killed while rewriting it, a half-written copy).
    #expect(leftovers(fixture).contains("\(led).state"), "\(leftovers(fixture))")
    #expect(
      leftovers(fixture).allSatisfy { $0 == "\(led).state" || $0.hasPrefix(".\(led).state.") })
    let next = try run(["send", "--led", led, "--unit", "1", "E"], in: fixture)
    #expect(next.exitStatus == 0, "\(next)")
    #expect(next.standardError.contains("restored LED \(led)"), "\(next)")
    #expect(next.standardError.contains("pid \(first.processIdentifier)"), "\(next)")
    try expectTimerRestored(fixture)
    #expect(leftovers(fixture).isEmpty)
  }

  @Test(arguments: [["status"], ["stop"]])
  func statusAndStopAlsoRestoreAfterAKill(command: [String]) throws {
    let fixture = try fixture()
    let first = try startLongSend(in: fixture)
    first.send(signal: SIGKILL)
    _ = try first.wait()
    let outcome = try run(command, in: fixture)
    #expect(outcome.standardError.contains("restored LED \(led)"), "\(outcome)")
    // Before: `status` said it had found nothing (exit 3) right after restoring the LED.
    #expect(outcome.exitStatus == 0, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test(arguments: ["", "{\"led\":", "not json at all", "{\"version\":1}"])
  func aCorruptRecordIsReportedAndIgnored(content: String) throws {
    let fixture = try fixture()
    let directory = runtimeDirectory(of: fixture)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try content.write(toFile: directory + "/\(led).state", atomically: false, encoding: .utf8)
    let outcome = try run(["send", "--led", led, "--unit", "1", "E"], in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.contains("ignoring the state record"), "\(outcome)")
    try expectTimerRestored(fixture)
    #expect(leftovers(fixture).isEmpty)
  }

  @Test func aRecordWithImplausibleValuesIsNotWrittenToTheLED() throws {
    let fixture = try fixture()
    let directory = runtimeDirectory(of: fixture)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    // A trigger attribute that is not one of the timer's: never written anywhere.
    let record = """
      {"led":"\(led)","line":1,"pid":99999,"saved":{"brightness":0,"trigger":"timer",\
      "triggerAttributes":[{"content":"x","name":"../../etc/evil"}]},"sentSymbols":0,\
      "startedAt":0,"text":"x","totalSymbols":1,"version":1}
      """
    try record.write(toFile: directory + "/\(led).state", atomically: false, encoding: .utf8)
    let outcome = try run(["send", "--led", led, "--unit", "1", "E"], in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.contains("ignoring the state record"), "\(outcome)")
    try expectTimerRestored(fixture)
  }
}
