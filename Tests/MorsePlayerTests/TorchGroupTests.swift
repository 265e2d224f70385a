import DeviceContract
import LinuxSystem
import MorseCore
import MorseTestSupport
import Testing

@testable import MorsePlayer

@Suite struct TorchGroupTests {
  private let timing = MorseTiming(unit: .milliseconds(100))

  @Test func everyMemberSwitchesAtTheSameDeadlinesForEveryRound() throws {
    let clock = ManualStepClock()
    let members = [RecordingTorch(clock: clock), RecordingTorch(clock: clock)]
    let transmitter = Transmitter(
      torch: TorchGroup(members),
      scheduler: StepScheduler(clock: clock, cancellation: Cancellation()), timing: timing)
    let outcome = try transmitter.send(
      try MorseMessage("E"), repetition: Repetition(count: 3, pause: .milliseconds(500)))
    #expect(outcome == .completed)
    // E, a 500 ms pause, E, a pause, E: the same edges on both, at the same instants.
    let expected = timeline([0, 100, 600, 700, 1200, 1300])
    #expect(members[0].events == expected)
    #expect(members[1].events == expected)
  }

  @Test func aMemberThatFailsEndsTheTransmissionAndRestoreReachesEveryMember() throws {
    let clock = ManualStepClock()
    let members = [RecordingTorch(clock: clock), RecordingTorch(clock: clock, failAtSet: 3)]
    let group = TorchGroup(members)
    let transmitter = Transmitter(
      torch: group, scheduler: StepScheduler(clock: clock, cancellation: Cancellation()),
      timing: timing)
    #expect(throws: RecordingTorch.InjectedFailure.self) {
      _ = try transmitter.send(try MorseMessage("EE"))
    }
    // The first member went on for the second E before the second member failed.
    #expect(members[0].events == timeline([0, 100, 400]))
    try group.restore()
    #expect(members.map(\.restoreCount) == [1, 1])
  }

  @Test func restoreGoesOnPastAFailingMemberAndThrowsItsError() {
    final class Unrestorable: Torch {
      struct Failure: Error {}
      var restores = 0
      func set(_ isOn: Bool) {}
      func restore() throws {
        restores += 1
        throw Failure()
      }
    }
    let members = [Unrestorable(), Unrestorable()]
    #expect(throws: Unrestorable.Failure.self) { try TorchGroup(members).restore() }
    #expect(members.map(\.restores) == [1, 1], "a failing member kept the next one lit")
  }
}
