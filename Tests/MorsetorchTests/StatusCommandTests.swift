import LEDDriver
import Testing
import TransmitterControl

@testable import MorsetorchTool

@Suite struct StatusCommandTests {
  private let saved = SavedLEDState(trigger: "none", brightness: 0, triggerAttributes: []).fields

  private func record(text: String, total: Int?, sent: Int) -> TransmissionRecord {
    var record = TransmissionRecord(
      pid: 7, device: .led("a"), text: text, totalSymbols: total, saved: saved, startedAt: 100)
    record.sentSymbols = sent
    return record
  }

  @Test func oneCharacterIsSingular() {
    let one = StatusCommand.summary(of: record(text: "E", total: 1, sent: 1), now: 103)
    #expect(one == "a: sending \"E\" (pid 7): 1 of 1 character begun, for 3 s")
    let stream = StatusCommand.summary(
      of: record(text: "(standard input)", total: nil, sent: 1), now: 100)
    #expect(stream.contains(": 1 character, line 1 begun"), "\(stream)")
    let many = StatusCommand.summary(of: record(text: "SOS", total: 3, sent: 1), now: 100)
    #expect(many.contains("1 of 3 characters"), "\(many)")
  }

  @Test func anIdleStreamIsWaitingForInputNotSending() {
    var idle = record(text: "(standard input)", total: nil, sent: 4)
    idle.line = 2
    idle.waitingForLine = 3
    let line = StatusCommand.summary(of: idle, now: 100)
    #expect(line == "a: waiting for input (line 3) (pid 7): 4 characters begun, for 0 s")
  }

  @Test func summarySaysWhatWhoAndHowFar() {
    var record = TransmissionRecord(
      pid: 42, device: .led("white:flash"), text: "SOS", totalSymbols: 3, saved: saved,
      startedAt: 1000)
    record.sentSymbols = 2
    #expect(
      StatusCommand.summary(of: record, now: 1065, waiting: [7, 8])
        == "white:flash: sending \"SOS\" (pid 42): 2 of 3 characters begun, for 1 min 5 s; "
        + "2 waiting (pid 7, 8)")
    var streamed = record
    streamed.totalSymbols = nil
    streamed.line = 4
    #expect(
      StatusCommand.summary(of: streamed, now: 1003).contains(
        "2 characters, line 4 begun, for 3 s"))
  }

  @Test func theStateUserAndServiceAreSaid() {
    var beacon = record(text: "VVV", total: 3, sent: 2)
    beacon.writerID = 0
    let line = StatusCommand.summary(
      of: beacon,
      holder: .init(isStopped: true, unit: "morsetorch-beacon@white:flash.service"), now: 103,
      userName: { $0 == 0 ? "root" : nil })
    #expect(
      line == "a: stopped (Ctrl-Z or SIGSTOP) while sending \"VVV\" (pid 7, user root, "
        + "service morsetorch-beacon@white:flash.service): 2 of 3 characters begun, for 3 s")
    beacon.writerID = 1234
    let unnamed = StatusCommand.summary(of: beacon, now: 103, userName: { _ in nil })
    #expect(unnamed.contains("a: sending \"VVV\" (pid 7, user 1234): "), "\(unnamed)")
  }

  @Test func anotherUsersTextCannotActOnTheTerminal() {
    let hostile = record(text: "\u{1B}]0;owned\u{07}\nfake line\u{202E}", total: 1, sent: 0)
    let line = StatusCommand.summary(of: hostile, now: 100)
    #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }, "\(line)")
    #expect(line.contains("\\u{1B}]0;owned\\u{7}\\nfake line\\u{202E}"), "\(line)")
  }

  @Test func aStartTimeFromTheFarPastOrFutureIsNoCrash() {
    // Before: Int(seconds) of 1e300 trapped (exit 132), in root's `status` too.
    var past = record(text: "x", total: 1, sent: 0)
    past.startedAt = -1e300
    #expect(StatusCommand.summary(of: past, now: 100).hasSuffix("d 0 h") == false)
    #expect(StatusCommand.summary(of: past, now: 100).contains("for "))
    past.startedAt = 1e300
    #expect(StatusCommand.summary(of: past, now: 100).hasSuffix("for 0 s"))
  }
}
