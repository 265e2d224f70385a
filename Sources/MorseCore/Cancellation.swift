import Glibc
import Synchronization

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
    pthread_cond_wait(condition, lock.pointer)
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
/// Waiting is `sem_clockwait` on `CLOCK_MONOTONIC`: a deadline is an absolute instant on the
/// monotonic clock. Firing is an atomic flag and a `sem_post`, both async-signal-safe, so a
/// signal handler can fire it itself (`SignalWatcher(signals:cancelling:)`) and the waiting
/// step wakes straight from the signal, with no other thread to schedule first. `cancel()`
/// from any thread does the same, then runs the `onCancel` handlers.
public final class Cancellation: @unchecked Sendable {
  private let flag = Atomic<Bool>(false)
  private let semaphore: UnsafeMutablePointer<sem_t>
  private let lock = Lock()
  private var handlersRan = false
  private var handlers: [@Sendable () -> Void] = []

  /// A cancellation that has not fired.
  public init() {
    semaphore = .allocate(capacity: 1)
    sem_init(semaphore, 0, 0)
  }

  deinit {
    sem_destroy(semaphore)
    semaphore.deallocate()
  }

  /// Whether the cancellation has fired.
  public var isCancelled: Bool {
    flag.load(ordering: .acquiring)
  }

  /// Fires: wakes every waiter and runs the handlers once. Later calls do nothing more.
  public func cancel() {
    fireFromSignalHandler()
    let toRun: [@Sendable () -> Void] = lock.withLock {
      guard !handlersRan else { return [] }
      handlersRan = true
      defer { handlers = [] }
      return handlers
    }
    for handler in toRun { handler() }
  }

  /// The async-signal-safe part of `cancel()`: sets the flag and wakes the waiters, no more.
  /// (The handlers run when `cancel()` is called later, from an ordinary thread.)
  func fireFromSignalHandler() {
    let (exchanged, _) = flag.compareExchange(
      expected: false, desired: true, ordering: .acquiringAndReleasing)
    if exchanged { sem_post(semaphore) }
  }

  /// Runs `handler` when the cancellation fires (at once, if it already has).
  public func onCancel(_ handler: @escaping @Sendable () -> Void) {
    let runNow: Bool = lock.withLock {
      if handlersRan || isCancelled { return true }
      handlers.append(handler)
      return false
    }
    if runNow { handler() }
  }

  /// Waits until the monotonic clock reaches `deadline`; returns false if cancelled first.
  public func wait(untilMonotonic deadline: MonotonicInstant) -> Bool {
    let (seconds, attoseconds) = deadline.sinceOrigin.components
    var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    while !isCancelled {
      if Self.clockWait(semaphore, &time) == 0 {
        // Woken by the one post a firing makes: pass it on to any other waiter.
        sem_post(semaphore)
        continue
      }
      if errno == ETIMEDOUT { break }
      // EINTR: a signal handler ran on this thread (perhaps to fire this very switch).
    }
    return !isCancelled
  }

  /// Waits until cancelled.
  public func waitUntilCancelled() {
    while !isCancelled {
      if sem_wait(semaphore) == 0 { sem_post(semaphore) }
    }
  }

  private typealias ClockWait =
    @convention(c) (
      UnsafeMutablePointer<sem_t>?, clockid_t, UnsafePointer<timespec>?
    ) -> Int32

  // glibc 2.30 has sem_clockwait, but Swift's Glibc module does not show it: look it up.
  private nonisolated(unsafe) static let library = dlopen(nil, RTLD_NOW)
  private static let clockWaitFunction: ClockWait? = dlsym(library, "sem_clockwait").map {
    unsafeBitCast($0, to: ClockWait.self)
  }

  /// `sem_clockwait(CLOCK_MONOTONIC)`; where it is missing, `sem_timedwait` with the deadline
  /// moved onto the realtime clock (looked at again after each wake, so still right).
  private static func clockWait(
    _ semaphore: UnsafeMutablePointer<sem_t>, _ deadline: inout timespec
  )
    -> Int32
  {
    if let clockWaitFunction { return clockWaitFunction(semaphore, CLOCK_MONOTONIC, &deadline) }
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    var realtime = timespec()
    clock_gettime(CLOCK_REALTIME, &realtime)
    let remaining =
      (deadline.tv_sec - now.tv_sec) * 1_000_000_000 + (deadline.tv_nsec - now.tv_nsec)
    guard remaining > 0 else {
      errno = ETIMEDOUT
      return -1
    }
    let target = realtime.tv_sec * 1_000_000_000 + realtime.tv_nsec + remaining
    var converted = timespec(tv_sec: target / 1_000_000_000, tv_nsec: target % 1_000_000_000)
    let status = sem_timedwait(semaphore, &converted)
    if status != 0 && errno == ETIMEDOUT {
      // The realtime clock may have been set meanwhile: trust only the monotonic one.
      clock_gettime(CLOCK_MONOTONIC, &now)
      if (now.tv_sec, now.tv_nsec) < (deadline.tv_sec, deadline.tv_nsec) { errno = EINTR }
    }
    return status
  }
}
