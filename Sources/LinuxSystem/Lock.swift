import Glibc

/// A mutual-exclusion lock (`pthread_mutex_t`).
final class Lock: @unchecked Sendable {
  let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// A new, unlocked lock.
  init() {
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the lock held.
  func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result)
    throws(Failure) -> Result
  {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
