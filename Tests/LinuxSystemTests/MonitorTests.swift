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
}
