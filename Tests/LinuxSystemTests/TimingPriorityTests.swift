import Instants
import Synchronization
import Testing

@testable import LinuxSystem

@Suite struct TimingPriorityTests {
  @Test func theLeastTimerSlackIsAskedForAndSaid() throws {
    let got = Mutex<TimingPriority?>(nil)
    let done = OneShotEvent()
    // A thread of its own: the test runner's threads keep their settings.
    try Threads.start {
      got.withLock { $0 = TimingPriority.raiseForCurrentThread(realTime: false) }
      done.fire()
    }
    done.wait()
    let priority = try #require(got.withLock { $0 })
    // Linux's default is 50 000 ns; 1 ns is the least (0 would mean "the default").
    #expect(priority.timerSlackNanoseconds == 1)
    #expect(!priority.isRealTime && !priority.isMemoryLocked)
    #expect(
      priority.description == "timer slack 1 ns, normal scheduling, memory not locked")
  }

  @Test func aConditionVariableWaitEndsAtItsMonotonicDeadline() {
    let lock = Lock()
    let condition = ConditionVariable()
    // A deadline already past: the wait returns at once, saying it timed out.
    let woken = lock.withLock {
      condition.wait(lock, untilMonotonic: MonotonicTime.now() - .milliseconds(1))
    }
    #expect(!woken)
  }
}
