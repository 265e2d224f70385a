import Glibc
import Instants

/// A condition variable (`pthread_cond_t`), used with a `Lock`.
final class ConditionVariable: @unchecked Sendable {
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  /// A new condition variable; its timed waits are on CLOCK_MONOTONIC.
  init() {
    condition = .allocate(capacity: 1)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(condition, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deallocate()
  }

  /// `pthread_cond_wait`: releases `lock` (held by the caller) until signalled.
  func wait(_ lock: Lock) {
    pthread_cond_wait(condition, lock.mutex)
  }

  /// `pthread_cond_timedwait`: as `wait`, but no later than `deadline` on the monotonic clock
  /// (`MonotonicTime.now()`'s); whether it was woken before the deadline (or spuriously).
  @discardableResult
  func wait(_ lock: Lock, untilMonotonic deadline: MonotonicInstant) -> Bool {
    let (seconds, attoseconds) = deadline.sinceOrigin.components
    var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    return pthread_cond_timedwait(condition, lock.mutex, &time) == 0
  }

  /// `pthread_cond_signal`: wakes one waiter.
  func signal() {
    pthread_cond_signal(condition)
  }

  /// `pthread_cond_broadcast`: wakes every waiter.
  func broadcast() {
    pthread_cond_broadcast(condition)
  }
}
