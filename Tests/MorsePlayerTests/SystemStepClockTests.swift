import Foundation
import Instants
import LinuxSystem
import MorseCore
import MorseTestSupport
import Testing

@testable import MorsePlayer

@Suite struct SystemStepClockTests {
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
}
