import Glibc

/// Runs `body` on a new detached thread (`pthread_create`).
///
/// The threads of morsetorch are few and long-lived (a signal watcher, a line reader, a
/// preview drawer, a record writer); Foundation's `Thread` would pull all of Foundation into
/// the binary for this alone.
public func startThread(_ body: @escaping @Sendable () -> Void) {
  final class Box {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
  let context = Unmanaged.passRetained(Box(body)).toOpaque()
  var thread = pthread_t()
  let status = pthread_create(
    &thread, nil,
    { context in
      guard let context else { return nil }
      Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
      return nil
    }, context)
  if status == 0 {
    pthread_detach(thread)
  } else {
    // No thread to be had: run it here rather than never.
    Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
  }
}

/// A mutual-exclusion lock (`pthread_mutex_t`).
public final class Lock: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  /// A new, unlocked lock.
  public init() {
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the lock held.
  public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }

  fileprivate var pointer: UnsafeMutablePointer<pthread_mutex_t> { mutex }
}

/// A condition variable bound to `CLOCK_MONOTONIC` (`pthread_cond_t`), used with a `Lock`.
public final class ConditionVariable: @unchecked Sendable {
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  /// A condition variable whose timed waits take deadlines on the monotonic clock.
  public init() {
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
  public func wait(_ lock: Lock) {
    pthread_cond_wait(condition, lock.pointer)
  }

  /// `pthread_cond_timedwait`; returns false when `deadline` passed first.
  public func wait(_ lock: Lock, until deadline: MonotonicInstant) -> Bool {
    let (seconds, attoseconds) = deadline.sinceOrigin.components
    var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    return pthread_cond_timedwait(condition, lock.pointer, &time) != ETIMEDOUT
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

/// A one-way switch that stops a transmission, and wakes anything waiting on it at once.
///
/// Waiting is a `pthread_cond_timedwait` on a condition variable bound to `CLOCK_MONOTONIC`,
/// so a deadline is an absolute instant on the monotonic clock and `cancel()` from any thread
/// (a signal watcher, a rerun) ends the wait immediately.
public final class Cancellation: @unchecked Sendable {
  private let lock = Lock()
  private let condition = ConditionVariable()
  private var cancelled = false
  private var handlers: [@Sendable () -> Void] = []

  /// A cancellation that has not fired.
  public init() {}

  /// Whether `cancel()` has been called.
  public var isCancelled: Bool {
    lock.withLock { cancelled }
  }

  /// Fires: wakes every waiter and runs the handlers once. Later calls do nothing.
  public func cancel() {
    let toRun: [@Sendable () -> Void] = lock.withLock {
      guard !cancelled else { return [] }
      cancelled = true
      condition.broadcast()
      defer { handlers = [] }
      return handlers
    }
    for handler in toRun { handler() }
  }

  /// Runs `handler` when the cancellation fires (at once, if it already has).
  public func onCancel(_ handler: @escaping @Sendable () -> Void) {
    let runNow: Bool = lock.withLock {
      if cancelled { return true }
      handlers.append(handler)
      return false
    }
    if runNow { handler() }
  }

  /// Waits until the monotonic clock reaches `deadline`; returns false if cancelled first.
  public func wait(untilMonotonic deadline: MonotonicInstant) -> Bool {
    lock.withLock {
      while !cancelled {
        guard condition.wait(lock, until: deadline) else { break }
      }
      return !cancelled
    }
  }

  /// Waits until cancelled.
  public func waitUntilCancelled() {
    lock.withLock {
      while !cancelled { condition.wait(lock) }
    }
  }
}
