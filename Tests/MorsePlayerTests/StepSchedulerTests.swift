import DeviceContract
import Foundation
import Instants
import LinuxSystem
import MorseCore
import MorseTestSupport
import Testing

@testable import MorsePlayer

@Suite struct StepSchedulerTests {
  private func steps(_ text: String, unit: Int = 100) throws -> MorseSteps<MorseMessage> {
    MorseSteps(try MorseMessage(text), timing: MorseTiming(unit: .milliseconds(unit)))
  }

  @Test func sosRunsAtExactDeadlines() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let scheduler = StepScheduler(clock: clock, cancellation: Cancellation())
    let outcome = try scheduler.run(try steps("SOS"), on: torch, startingAt: .origin)
    #expect(outcome == .completed(end: at(2700)))
    #expect(
      torch.events
        == timeline([
          0, 100, 200, 300, 400, 500,  // S
          800, 1100, 1200, 1500, 1600, 1900,  // O
          2200, 2300, 2400, 2500, 2600, 2700,  // S, then off at the end
        ]))
    #expect(!torch.isOn)
  }

  @Test func deadlinesAreAbsoluteSoLateWakeUpsDoNotAddUp() throws {
    // Every wait wakes 7 ms late; the deadlines asked for stay on the schedule.
    let clock = ManualStepClock(start: at(5000), lateness: .milliseconds(7))
    let torch = RecordingTorch(clock: clock)
    _ = try StepScheduler(clock: clock, cancellation: Cancellation()).run(
      try steps("SOS"), on: torch, startingAt: at(5000))
    #expect(
      clock.deadlines.map { $0.sinceOrigin }
        == [
          0, 100, 200, 300, 400, 500, 800, 1100, 1200, 1500, 1600, 1900, 2200, 2300, 2400, 2500,
          2600, 2700,
        ].map { Duration.milliseconds(5000 + $0) })
    #expect(torch.events.last == RecordingTorch.Event(milliseconds: 7707, isOn: false))
  }

  @Test func cancelMidDashWakesAtOnceAndEndsOff() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let scheduler = StepScheduler(clock: clock, cancellation: Cancellation())
    // The first dash of O is on from 800 to 1100 ms: cancel in the middle of it.
    clock.schedule(at: at(950)) { scheduler.cancellation.cancel() }
    let outcome = try scheduler.run(try steps("SOS"), on: torch, startingAt: .origin)
    #expect(outcome == .cancelled)
    #expect(torch.events == timeline([0, 100, 200, 300, 400, 500, 800, 950]))
    #expect(!torch.isOn)
    #expect(clock.now() == at(950))
    #expect(scheduler.isCancelled)
  }

  @Test func cancelDuringAGapLeavesTheTorchOffWithoutAnExtraWrite() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let scheduler = StepScheduler(clock: clock, cancellation: Cancellation())
    clock.schedule(at: at(650)) { scheduler.cancellation.cancel() }
    let outcome = try scheduler.run(try steps("SOS"), on: torch, startingAt: .origin)
    #expect(outcome == .cancelled)
    #expect(torch.events == timeline([0, 100, 200, 300, 400, 500]))
  }

  @Test func cancelDuringTheLastStepStillEndsOff() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let scheduler = StepScheduler(clock: clock, cancellation: Cancellation())
    clock.schedule(at: at(250)) { scheduler.cancellation.cancel() }
    let outcome = try scheduler.run(try steps("T"), on: torch, startingAt: .origin)
    #expect(outcome == .cancelled)
    #expect(torch.events == timeline([0, 250]))
  }

  @Test func cancelledBeforeStartingSendsNothing() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let scheduler = StepScheduler(clock: clock, cancellation: Cancellation())
    scheduler.cancellation.cancel()
    #expect(try scheduler.run(try steps("SOS"), on: torch, startingAt: .origin) == .cancelled)
    #expect(torch.events.isEmpty)
  }

  @Test func torchErrorIsRethrownWithTheTorchOff() throws {
    let clock = ManualStepClock()
    // The third switch (the second dot going on) fails.
    let torch = RecordingTorch(clock: clock, failAtSet: 3)
    #expect(throws: RecordingTorch.InjectedFailure()) {
      try StepScheduler(clock: clock, cancellation: Cancellation()).run(
        try steps("S"), on: torch, startingAt: .origin)
    }
    #expect(torch.events == timeline([0, 100]))
    #expect(!torch.isOn)
  }

  @Test func torchErrorWhileOnSwitchesItOff() throws {
    let clock = ManualStepClock()
    // The second switch (off after the first dash) fails; the scheduler tries off again.
    let torch = RecordingTorch(clock: clock, failAtSet: 2)
    #expect(throws: RecordingTorch.InjectedFailure()) {
      try StepScheduler(clock: clock, cancellation: Cancellation()).run(
        try steps("T"), on: torch, startingAt: .origin)
    }
    #expect(torch.events == timeline([0, 300]))
    #expect(!torch.isOn)
  }

  @Test func observerHearsEachStepAtItsDeadline() throws {
    let clock = ManualStepClock()
    var heard: [(MorseStep.Kind, MonotonicInstant)] = []
    _ = try StepScheduler(clock: clock, cancellation: Cancellation()).run(
      try steps("EE"), on: RecordingTorch(clock: clock), startingAt: at(10)
    ) { step, instant in heard.append((step.kind, instant)) }
    #expect(heard.map(\.0) == [.dot, .letterGap, .dot])
    #expect(heard.map(\.1) == [at(10), at(110), at(410)])
  }

  @Test func aFailureReportedDuringAGapIsThrownWithTheTorchOff() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let cancellation = Cancellation()
    struct Vanished: Error, Equatable {}
    // During the dash of T (on 0-300 ms), the device reports that it went away.
    clock.schedule(at: at(150)) { cancellation.fail(Vanished()) }
    #expect(throws: Vanished()) {
      try StepScheduler(clock: clock, cancellation: cancellation).run(
        try steps("TT"), on: torch, startingAt: .origin)
    }
    #expect(torch.events == timeline([0, 150]))
    #expect(!torch.isOn)
  }

  @Test func aStallShiftsTheRestInsteadOfReplayingItInABurst() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    // E E E at 100 ms: on 0-100, gap to 400, on 400-500, gap to 800, on 800-900. During the
    // first gap the machine stalls for a second (SIGTSTP and SIGCONT, a loaded host).
    clock.schedule(at: at(150)) { clock.advance(by: .milliseconds(1000)) }
    _ = try StepScheduler(clock: clock, cancellation: Cancellation()).run(
      try steps("EEE"), on: torch, startingAt: .origin, lateTolerance: .milliseconds(50))
    // Before: on@1150 then off, on, off all at 1150 — the rest of the message in no time.
    #expect(torch.events == timeline([0, 100, 1150, 1250, 1550, 1650]))
  }

  @Test func latenessWithinTheToleranceIsMadeUpWithoutAnElementUnderThreeQuarters() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    clock.schedule(at: at(150)) { clock.advance(by: .milliseconds(280)) }  // 30 ms late at 400
    _ = try StepScheduler(clock: clock, cancellation: Cancellation()).run(
      try steps("EEE"), on: torch, startingAt: .origin, lateTolerance: .milliseconds(50))
    // The second dot lasts 75 ms (not 70); its gap makes up the other 5 ms: back on time.
    #expect(torch.events == timeline([0, 100, 430, 505, 800, 900]))
  }

  @Test func aHiccupAtAOneMillisecondUnitShortensNoElementBelowThreeQuarters() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let timing = MorseTiming(unit: .milliseconds(1))
    // PARIS at 1 ms (P: on 0-1, off 1-2, on 2-5, ...): busy from 1.5 to 3.9 ms, so the dash
    // due at 2 ms is switched 1.9 ms late, under the 2 ms tolerance: made up, not shifted.
    clock.schedule(at: .origin + .microseconds(1500)) { clock.advance(by: .microseconds(2400)) }
    let message = Array(MorseSteps(try MorseMessage("PARIS"), timing: timing))
    _ = try StepScheduler(clock: clock, cancellation: Cancellation()).run(
      message, on: torch, startingAt: .origin, lateTolerance: timing.lateTolerance)
    let times = torch.events.map(\.milliseconds)
    let lengths = zip(times.dropFirst(), times).map { $0 - $1 }
    #expect(lengths.count == message.count)
    for (length, step) in zip(lengths, message) {
      let nominal = Double(step.duration / .microseconds(1)) / 1000
      #expect(length >= nominal * 0.75 - 1e-9, "\(step.kind) lasted \(length) ms of \(nominal)")
    }
    // Made up, not shifted: the last edge is where the schedule puts it.
    let end = message.reduce(Duration.zero) { $0 + $1.duration }
    #expect(times.last == Double(end / .microseconds(1)) / 1000)
  }

  @Test func aSlowWriteDoesNotEatIntoTheElementItStarts() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    // Every switch on takes 0.5 ms to be done (a busy sysfs); the recorded edge is when the
    // write returned. At a 1 ms unit each mark still lasts at least three quarters of a unit.
    let slow = SlowTorch(clock: clock, inner: torch, onDelay: .microseconds(500))
    let timing = MorseTiming(unit: .milliseconds(1))
    let message = Array(MorseSteps(try MorseMessage("EEE"), timing: timing))
    _ = try StepScheduler(clock: clock, cancellation: Cancellation()).run(
      message, on: slow, startingAt: .origin, lateTolerance: timing.lateTolerance)
    let times = torch.events.map(\.milliseconds)
    for (index, step) in message.enumerated() where step.isOn {
      #expect(times[index + 1] - times[index] >= 0.75, "mark \(index): \(times)")
    }
  }
}

/// A torch that takes `onDelay` on the manual clock to switch on, then switches `inner`.
private final class SlowTorch: Torch {
  let clock: ManualStepClock
  let inner: RecordingTorch
  let onDelay: Duration

  init(clock: ManualStepClock, inner: RecordingTorch, onDelay: Duration) {
    self.clock = clock
    self.inner = inner
    self.onDelay = onDelay
  }

  func set(_ isOn: Bool) throws {
    if isOn { clock.advance(by: onDelay) }
    try inner.set(isOn)
  }

  func restore() throws { try inner.restore() }
}
