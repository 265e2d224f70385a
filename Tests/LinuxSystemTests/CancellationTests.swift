import Foundation
import Instants
import LinuxSystem
import MorseTestSupport
import Testing


@Suite struct CancellationTests {
  @Test func manyWaitersAllWakeWhenCancelled() {
    let cancellation = Cancellation()
    let woken = Counter()
    let done = Cancellation()
    let deadline = MonotonicTime.now() + .seconds(3600)
    for _ in 0..<4 {
      Thread.detachNewThread {
        if !cancellation.wait(untilMonotonic: deadline) { woken.increment() }
        if woken.value == 4 { done.cancel() }
      }
    }
    cancellation.cancel()
    #expect(done.wait(untilMonotonic: MonotonicTime.now() + .seconds(10)) == false)
    #expect(woken.value == 4)
  }

  @Test func aWaitEndsAtItsDeadline() {
    let deadline = MonotonicTime.now() + .milliseconds(5)
    #expect(Cancellation().wait(untilMonotonic: deadline) == true)
    #expect(MonotonicTime.now() >= deadline)
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

  @Test func theFirstCauseWins() {
    struct First: Error {}
    struct Second: Error {}
    let cancellation = Cancellation()
    cancellation.fail(First())
    cancellation.fail(Second())
    #expect(cancellation.isCancelled)
    #expect(cancellation.failure is First)
    let plain = Cancellation()
    plain.cancel()
    plain.fail(First())
    #expect(plain.failure == nil, "a plain cancel came first: no failure to report")
  }

  @Test func aSignalHandlerMayFireTheEventDirectly() {
    let cancellation = Cancellation()
    let count = Counter()
    cancellation.onCancel { count.increment() }
    // What the signal handler does: the flag and the post, no handlers.
    cancellation.event.fire()
    #expect(cancellation.isCancelled)
    #expect(count.value == 0)
    #expect(cancellation.wait(untilMonotonic: MonotonicTime.now() + .seconds(3600)) == false)
    // The watcher thread's cancel() then runs them, once.
    cancellation.cancel()
    #expect(count.value == 1)
  }
}
