import Instants

/// State guarded by a lock, with one condition its threads wait on for it to change: a
/// `pthread_mutex_t` and a `pthread_cond_t` (through `Lock` and `ConditionVariable`).
///
/// For state that a thread waits on; state that is only read and written needs no more than
/// `Synchronization.Mutex`. Every waiter checks its own condition again when woken, so one
/// condition serves all of them, and `wakeWaiters()` wakes them all.
public final class Monitor<State> {
  private let lock = Lock()
  private let changed = ConditionVariable()
  private var state: State

  /// A monitor of `state`.
  public init(_ state: State) { self.state = state }

  /// Runs `body` with the state, the lock held; wakes no one.
  public func withLock<Result, Failure: Error>(
    _ body: (inout State) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try lock.withLock { () throws(Failure) -> Result in try body(&state) }
  }

  /// Waits until `isReady` holds for the state, then runs `body` with it, the lock held
  /// throughout (`pthread_cond_wait` in a loop: a wake-up proves nothing).
  public func wait<Result>(
    until isReady: (State) -> Bool, then body: (inout State) -> Result
  ) -> Result {
    lock.withLock {
      while !isReady(state) { changed.wait(lock) }
      return body(&state)
    }
  }

  /// Waits until `isReady` holds for the state or the monotonic clock reaches the deadline
  /// that `deadline` gives for it (nil: none), both asked again at every wake-up; then runs
  /// `body` with the state, the lock held throughout (`pthread_cond_timedwait`).
  public func wait<Result>(
    until isReady: (State) -> Bool, orDeadline deadline: (State) -> MonotonicInstant?,
    then body: (inout State) -> Result
  ) -> Result {
    lock.withLock {
      while !isReady(state) {
        guard let deadline = deadline(state) else {
          changed.wait(lock)
          continue
        }
        if MonotonicTime.now() >= deadline { break }
        changed.wait(lock, untilMonotonic: deadline)
      }
      return body(&state)
    }
  }

  /// Wakes every waiter to check its condition again (`pthread_cond_broadcast`), after a
  /// change made with the lock held (the call itself may come before or after releasing it).
  public func wakeWaiters() {
    changed.broadcast()
  }
}

// The state is only reached with the lock held.
extension Monitor: @unchecked Sendable where State: Sendable {}
