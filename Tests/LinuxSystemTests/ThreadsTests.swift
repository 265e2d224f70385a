import Instants
import Testing

@testable import LinuxSystem

@Suite("Threads")
struct ThreadsTests {
  @Test func aThreadRunsItsBody() throws {
    let done = OneShotEvent()
    try Threads.start { done.fire() }
    #expect(done.wait(untilMonotonic: MonotonicTime.now() + .seconds(10)) == false)
  }

  @Test func aThreadThatCannotBeHadIsAnErrorAndItsBodyNeverRuns() {
    let ran = OneShotEvent()
    // No system gives a thread a stack of 2^50 bytes: pthread_create fails (EAGAIN/ENOMEM)
    // or the size is refused outright (EINVAL).
    #expect(throws: Errno.self) {
      try Threads.start(stackSize: 1 << 50) { ran.fire() }
    }
    #expect(!ran.isFired, "the body must not run on the caller's thread instead")
  }

  @Test func aWorkerThreadIsWaitedForUntilItsBodyReturns() throws {
    let worker = WorkerThread()
    let release = OneShotEvent()
    let returned = OneShotEvent()
    try worker.start {
      release.wait()
      returned.fire()
    }
    release.fire()
    worker.wait()
    #expect(returned.isFired, "wait() returned before the body did")
  }
}
