import CLinuxSystem
import Glibc
import Instants

/// A one-way switch that wakes everything waiting on it, fired from any thread or from a
/// signal handler.
///
/// Firing is an atomic flag and one `sem_post`, both async-signal-safe (in C:
/// `morse_event_fire`). Waiting is `sem_clockwait` on `CLOCK_MONOTONIC`, so a deadline is an
/// absolute instant on the monotonic clock, and a firing wakes the waiter at once. A firing
/// also makes an eventfd readable, so a `poll(2)` on a file can end on it too
/// (`FileDescriptor.waitUntilReadable(unlessFired:)`).
public final class OneShotEvent: @unchecked Sendable {
  let storage: UnsafeMutablePointer<morse_event>

  /// An event that has not fired.
  public init() {
    storage = .allocate(capacity: 1)
    morse_event_init(storage)
  }

  deinit {
    morse_event_destroy(storage)
    storage.deallocate()
  }

  /// An eventfd that becomes readable when the event fires, for `poll(2)` beside other
  /// descriptors; -1 if none could be made (a poll then never sees the firing).
  var descriptor: Int32 { storage.pointee.descriptor }

  /// Whether it has fired.
  public var isFired: Bool { morse_event_is_fired(storage) != 0 }

  /// Fires it; returns whether this call did (false if it had fired already).
  @discardableResult
  public func fire() -> Bool { morse_event_fire(storage) != 0 }

  /// Waits until the monotonic clock reaches `deadline`; returns false if the event fired
  /// first.
  public func wait(untilMonotonic deadline: MonotonicInstant) -> Bool {
    let (seconds, attoseconds) = deadline.sinceOrigin.components
    var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    while !isFired {
      if morse_event_wait_monotonic(storage, &time) == 0 { continue }
      if errno == ETIMEDOUT { break }
      // EINTR: a signal handler ran on this thread (perhaps to fire this very event).
    }
    return !isFired
  }

  /// Waits until it fires.
  public func wait() {
    while !isFired { _ = morse_event_wait(storage) }
  }
}
