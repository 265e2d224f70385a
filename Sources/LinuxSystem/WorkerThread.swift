import Instants

/// A thread of one's own whose end can be waited for: a detached thread (`Threads.start`) that
/// fires an event as its body returns.
///
/// Made before it starts, so that a type can hold one in a stored property and start it from
/// its initializer with a body that uses `self`. Detached rather than joined: a thread that no
/// one waits for leaves nothing behind.
public final class WorkerThread: Sendable {
  private let finished = OneShotEvent()

  /// A thread not yet started.
  public init() {}

  /// Runs `body` on a new thread; throws the error of `pthread_create` (nothing runs then).
  /// Start it once.
  public func start(_ body: @escaping @Sendable () -> Void) throws(Errno) {
    try Threads.start { [finished] in
      body()
      finished.fire()
    }
  }

  /// Waits until the body has returned.
  public func wait() {
    finished.wait()
  }

  /// Waits until the body has returned (true) or the monotonic clock reaches `deadline`
  /// (false).
  public func wait(untilMonotonic deadline: MonotonicInstant) -> Bool {
    !finished.wait(untilMonotonic: deadline)
  }
}
