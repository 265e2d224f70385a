import MorseCore
import MorseTestSupport
import Testing

@Suite struct TimelineTests {
  @Test func dryRunLinesGiveStartStateDurationAndCharacter() throws {
    let clock = VirtualStepClock()
    let formatter = TimelineFormatter(origin: clock.now())
    var lines: [String] = []
    let transmitter = Transmitter(
      torch: VirtualTorch(), scheduler: StepScheduler(clock: clock),
      timing: MorseTiming(unit: .milliseconds(10)),
      observer: { lines.append(formatter.line(for: $0.step, at: $0.start)) })
    #expect(try transmitter.send(try MorseMessage("A E")) == .completed)
    #expect(
      lines == [
        "           0  on              10  A .-",
        "          10  off             10  A .-",
        "          20  on              30  A .-",
        "          50  off             70  (word gap)",
        "         120  on              10  E .",
      ])
    #expect(clock.now() == at(130))
    #expect(formatter.summary(end: clock.now(), steps: lines.count) == "total 130 ms in 5 steps")
  }

  @Test func virtualClockNeverGoesBackAndStopsWhenCancelled() {
    let clock = VirtualStepClock(start: at(100))
    let cancellation = Cancellation()
    #expect(clock.wait(until: at(50), unlessCancelled: cancellation))
    #expect(clock.now() == at(100))
    cancellation.cancel()
    #expect(clock.wait(until: at(500), unlessCancelled: cancellation) == false)
    #expect(clock.now() == at(100))
  }

  @Test func ledTableIsAligned() {
    let lines = LEDTable.lines(for: [
      LEDInfo(
        name: "input0::capslock", maxBrightness: 1, activeTrigger: "kbd-capslock", brightness: 0,
        isWritable: true),
      LEDInfo(
        name: "ACT", maxBrightness: nil, activeTrigger: nil, brightness: nil, isWritable: false),
    ])
    #expect(
      lines == [
        "NAME              MAX  TRIGGER       BRIGHTNESS  WRITABLE",
        "input0::capslock  1    kbd-capslock  0           yes",
        "ACT               ?    ?             ?           no",
      ])
  }
}
