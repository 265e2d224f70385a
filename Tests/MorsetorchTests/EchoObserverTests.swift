import LinuxSystem
import MorseCore
import MorsePlayer
import MorseTestSupport
import Testing

@testable import MorsetorchTool

@Suite struct EchoObserverTests {
  private func echo(_ text: String, repetition: Repetition = .once) throws -> [String] {
    let clock = ManualStepClock()
    var written: [String] = []
    let echo = EchoObserver { written.append($0) }
    let transmitter = Transmitter(
      torch: RecordingTorch(clock: clock),
      scheduler: StepScheduler(clock: clock, cancellation: Cancellation()),
      timing: MorseTiming(unit: .milliseconds(10)), observers: [echo])
    _ = try transmitter.send(try MorseMessage(text), repetition: repetition)
    return written
  }

  /// What is echoed of `text` when the torch fails at its `set`th switch, then `endLine()`.
  private func echoCut(_ text: String, atSet set: Int) throws -> [String] {
    let clock = ManualStepClock()
    var written: [String] = []
    let echo = EchoObserver { written.append($0) }
    let transmitter = Transmitter(
      torch: RecordingTorch(clock: clock, failAtSet: set),
      scheduler: StepScheduler(clock: clock, cancellation: Cancellation()),
      timing: MorseTiming(unit: .milliseconds(10)), observers: [echo])
    _ = try? transmitter.send(try MorseMessage(text), repetition: .once)
    echo.endLine()
    return written
  }

  @Test func aLineCutShortIsEndedAndItsUnfinishedCharacterLeftOut() throws {
    // H (8 switches) and E (2) sent, the first dot of L begun: "HE" and the line ended.
    #expect(try echoCut("HELLO", atSet: 12) == ["H", "E", "\n"])
    // Cut before anything was echoed: nothing, not an empty line.
    #expect(try echoCut("HELLO", atSet: 1) == [])
    // Ended already: no second line break.
    #expect(try echoCut("E", atSet: 100) == ["E\n"])
  }

  @Test func eachCharacterAsItEndsASpaceAtAWordGapAndALineAtTheEnd() throws {
    #expect(try echo("SOS SOS") == ["S", "O", "S ", "S", "O", "S\n"])
  }

  @Test func eachRoundIsALine() throws {
    #expect(
      try echo("HI", repetition: Repetition(count: 2, pause: .seconds(1)))
        == ["H", "I\n", "H", "I\n"])
  }

  @Test func prosignsAndPunctuationAreEchoedAsTheirText() throws {
    #expect(try echo("<SK> 5?").joined() == "<SK> 5?\n")
  }
}
