import Instants
import Testing

@testable import LinuxSystem

@Suite("Monitor")
struct MonitorTests {
  @Test func aWaiterRunsOnceItsConditionHoldsAndNotBefore() throws {
    let count = Monitor(0)
    let reached = OneShotEvent()
    try Threads.start {
      let seen = count.wait(until: { $0 >= 3 }) { $0 }
      #expect(seen == 3)
      reached.fire()
    }
    for _ in 1...2 {
      count.withLock { $0 += 1 }
      count.wakeWaiters()
    }
    #expect(reached.wait(untilMonotonic: MonotonicTime.now() + .milliseconds(50)))
    count.withLock { value in
      value += 1
      count.wakeWaiters()
    }
    #expect(!reached.wait(untilMonotonic: MonotonicTime.now() + .seconds(10)))
  }

  @Test func aDeadlineAlreadyPastEndsTheWaitAtOnce() {
    let monitor = Monitor(false)
    let started = MonotonicTime.now()
    let seen = monitor.wait(
      until: { $0 }, orDeadline: { _ in started - .seconds(1) }, then: { $0 })
    #expect(!seen)
    // Far under any wait: the condition was false and the deadline past.
    #expect(MonotonicTime.now() - started < .seconds(5))
  }

  @Test func aTimedWaiterWakesWhenItsConditionIsMadeTrue() throws {
    let monitor = Monitor(false)
    let reached = OneShotEvent()
    let farAway = MonotonicTime.now() + .seconds(60)
    try Threads.start {
      let seen = monitor.wait(until: { $0 }, orDeadline: { _ in farAway }, then: { $0 })
      #expect(seen)
      reached.fire()
    }
    monitor.withLock { $0 = true }
    monitor.wakeWaiters()
    // Woken by the change, not by the deadline a minute away.
    #expect(!reached.wait(untilMonotonic: MonotonicTime.now() + .seconds(10)))
  }
}
