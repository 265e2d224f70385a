import Instants
import LEDDriver
import LinuxSystem
import MorseCore
import MorsePlayer
import MorseTestSupport
import Testing

@testable import MorsetorchTool

@Suite struct TimelineFormatterTests {
  @Test func dryRunLinesGiveStartStateDurationAndCharacter() throws {
    let clock = VirtualStepClock()
    let formatter = TimelineFormatter(origin: clock.now())
    let observer = RecordingObserver()
    let transmitter = Transmitter(
      torch: VirtualTorch(), scheduler: StepScheduler(clock: clock, cancellation: Cancellation()),
      timing: MorseTiming(unit: .milliseconds(10)), observers: [observer])
    #expect(try transmitter.send(try MorseMessage("A E")) == .completed)
    let lines = observer.progress.map { formatter.line(for: $0.step, at: $0.start) }
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

  @Test func theSummarySaysOneStepInTheSingular() {
    let clock = VirtualStepClock()
    let formatter = TimelineFormatter(origin: clock.now())
    #expect(
      formatter.summary(end: clock.now() + .milliseconds(100), steps: 1) == "total 100 ms in 1 step"
    )
    #expect(formatter.summary(end: clock.now(), steps: 0) == "total 0 ms in 0 steps")
    #expect(
      formatter.summary(end: clock.now() + .milliseconds(300), steps: 2)
        == "total 300 ms in 2 steps")
  }

  /// A long dry run says its length in hours, minutes and seconds as well (issue 31: "total
  /// 103499300 ms" alone).
  @Test func longTotalsAreSpokenInHoursMinutesAndSeconds() {
    #expect(TimelineFormatter.spoken(.milliseconds(103_499_300)) == "28 h 44 min 59.3 s")
    #expect(TimelineFormatter.spoken(.seconds(270)) == "4 min 30 s")
    #expect(TimelineFormatter.spoken(.milliseconds(2030)) == "2 s")
    #expect(TimelineFormatter.spoken(.seconds(3600)) == "1 h")
    #expect(TimelineFormatter.spoken(.milliseconds(1250)) == "1.3 s")
  }
}
