import Glibc

/// A condition variable (`pthread_cond_t`), used with a `Lock`.
public final class ConditionVariable: @unchecked Sendable {
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  /// A new condition variable.
  public init() {
    condition = .allocate(capacity: 1)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deallocate()
  }

  /// `pthread_cond_wait`: releases `lock` (held by the caller) until signalled.
  public func wait(_ lock: Lock) {
    pthread_cond_wait(condition, lock.mutex)
  }

  /// `pthread_cond_signal`: wakes one waiter.
  public func signal() {
    pthread_cond_signal(condition)
  }

  /// `pthread_cond_broadcast`: wakes every waiter.
  public func broadcast() {
    pthread_cond_broadcast(condition)
  }
}
