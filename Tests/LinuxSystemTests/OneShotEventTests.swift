import Instants
import Testing

@testable import LinuxSystem

@Suite("OneShotEvent")
struct OneShotEventTests {
  @Test func itFiresOnce() {
    let event = OneShotEvent()
    #expect(!event.isFired)
    #expect(event.fire())
    #expect(!event.fire())
    #expect(event.isFired)
  }

  @Test func aWaitForAPastDeadlineReturnsAtOnceAndOneForAFiredEventReturnsFalse() {
    let event = OneShotEvent()
    #expect(event.wait(untilMonotonic: MonotonicTime.now() - .seconds(1)))
    event.fire()
    #expect(!event.wait(untilMonotonic: MonotonicTime.now() + .seconds(3600)))
    event.wait()
  }

  @Test func aFiringWakesEveryWaiter() throws {
    let event = OneShotEvent()
    let woken = (0..<4).map { _ in OneShotEvent() }
    for done in woken {
      try Threads.start {
        if !event.wait(untilMonotonic: MonotonicTime.now() + .seconds(3600)) { done.fire() }
      }
    }
    event.fire()
    for done in woken {
      #expect(!done.wait(untilMonotonic: MonotonicTime.now() + .seconds(10)))
    }
  }
}
