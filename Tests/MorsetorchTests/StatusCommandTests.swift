import LEDDriver
import Testing
import TransmitterControl

@testable import morsetorch

@Suite struct StatusCommandTests {
  private let saved = SavedLEDState(trigger: "none", brightness: 0, triggerAttributes: [])

  private func record(text: String, total: Int?, sent: Int) -> TransmissionRecord<SavedLEDState> {
    var record = TransmissionRecord(
      pid: 7, device: "a", text: text, totalSymbols: total, saved: saved, startedAt: 100)
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
}
