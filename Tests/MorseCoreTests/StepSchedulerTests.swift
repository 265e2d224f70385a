import Foundation
import MorseCore
import MorseTestSupport
import Testing

@Suite struct StepSchedulerTests {
  private func steps(_ text: String, unit: Int = 100) throws -> MorseSteps<MorseMessage> {
    MorseSteps(try MorseMessage(text), timing: MorseTiming(unit: .milliseconds(unit)))
  }

  @Test func sosRunsAtExactDeadlines() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let scheduler = StepScheduler(clock: clock)
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
    _ = try StepScheduler(clock: clock).run(try steps("SOS"), on: torch, startingAt: at(5000))
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
    let scheduler = StepScheduler(clock: clock)
    // The first dash of O is on from 800 to 1100 ms: cancel in the middle of it.
    clock.schedule(at: at(950)) { scheduler.cancel() }
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
    let scheduler = StepScheduler(clock: clock)
    clock.schedule(at: at(650)) { scheduler.cancel() }
    let outcome = try scheduler.run(try steps("SOS"), on: torch, startingAt: .origin)
    #expect(outcome == .cancelled)
    #expect(torch.events == timeline([0, 100, 200, 300, 400, 500]))
  }

  @Test func cancelDuringTheLastStepStillEndsOff() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let scheduler = StepScheduler(clock: clock)
    clock.schedule(at: at(250)) { scheduler.cancel() }
    let outcome = try scheduler.run(try steps("T"), on: torch, startingAt: .origin)
    #expect(outcome == .cancelled)
    #expect(torch.events == timeline([0, 250]))
  }

  @Test func cancelledBeforeStartingSendsNothing() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let scheduler = StepScheduler(clock: clock)
    scheduler.cancel()
    #expect(try scheduler.run(try steps("SOS"), on: torch, startingAt: .origin) == .cancelled)
    #expect(torch.events.isEmpty)
  }

  @Test func torchErrorIsRethrownWithTheTorchOff() throws {
    let clock = ManualStepClock()
    // The third switch (the second dot going on) fails.
    let torch = RecordingTorch(clock: clock, failAtSet: 3)
    #expect(throws: RecordingTorch.InjectedFailure()) {
      try StepScheduler(clock: clock).run(try steps("S"), on: torch, startingAt: .origin)
    }
    #expect(torch.events == timeline([0, 100]))
    #expect(!torch.isOn)
  }

  @Test func torchErrorWhileOnSwitchesItOff() throws {
    let clock = ManualStepClock()
    // The second switch (off after the first dash) fails; the scheduler tries off again.
    let torch = RecordingTorch(clock: clock, failAtSet: 2)
    #expect(throws: RecordingTorch.InjectedFailure()) {
      try StepScheduler(clock: clock).run(try steps("T"), on: torch, startingAt: .origin)
    }
    #expect(torch.events == timeline([0, 300]))
    #expect(!torch.isOn)
  }

  @Test func observerHearsEachStepAtItsDeadline() throws {
    let clock = ManualStepClock()
    var heard: [(MorseStep.Kind, MonotonicInstant)] = []
    _ = try StepScheduler(clock: clock).run(
      try steps("EE"), on: RecordingTorch(clock: clock), startingAt: at(10)
    ) { step, instant in heard.append((step.kind, instant)) }
    #expect(heard.map(\.0) == [.dot, .letterGap, .dot])
    #expect(heard.map(\.1) == [at(10), at(110), at(410)])
  }

  @Test func systemClockWaitEndsWhenCancelledFromAnotherThread() {
    let clock = SystemStepClock()
    let cancellation = Cancellation()
    let deadline = clock.now() + .seconds(3600)
    let started = Cancellation()
    Thread.detachNewThread {
      started.waitUntilCancelled()
      cancellation.cancel()
    }
    started.cancel()
    // Returns (false) long before the hour is up: the cancel wakes the wait.
    #expect(clock.wait(until: deadline, unlessCancelled: cancellation) == false)
    #expect(clock.now() < deadline)
  }

  @Test func systemClockReachesAPastDeadlineAtOnce() {
    let clock = SystemStepClock()
    let start = clock.now()
    #expect(clock.wait(until: start, unlessCancelled: Cancellation()) == true)
    #expect(clock.now() >= start)
  }

  @Test func manyWaitersAllWakeWhenCancelled() {
    let cancellation = Cancellation()
    let woken = Counter()
    let done = Cancellation()
    let deadline = SystemStepClock().now() + .seconds(3600)
    for _ in 0..<4 {
      Thread.detachNewThread {
        if !cancellation.wait(untilMonotonic: deadline) { woken.increment() }
        if woken.value == 4 { done.cancel() }
      }
    }
    cancellation.cancel()
    #expect(done.wait(untilMonotonic: SystemStepClock().now() + .seconds(10)) == false)
    #expect(woken.value == 4)
  }

  @Test func aWaitEndsAtItsDeadline() {
    let clock = SystemStepClock()
    let deadline = clock.now() + .milliseconds(5)
    #expect(Cancellation().wait(untilMonotonic: deadline) == true)
    #expect(clock.now() >= deadline)
  }

  @Test func cancellationHandlersRunOnceEvenIfRegisteredLate() {
    let cancellation = Cancellation()
    let count = Counter()
    cancellation.onCancel { count.increment() }
    cancellation.cancel()
    cancellation.cancel()
    cancellation.onCancel { count.increment() }
    #expect(count.value == 2)
  }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
  private let lock = Lock()
  private var count = 0
  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
