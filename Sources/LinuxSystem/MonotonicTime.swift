import Glibc
import Instants

/// The kernel's monotonic clock (`CLOCK_MONOTONIC`), which no one can set back.
public enum MonotonicTime {
  /// `clock_gettime(CLOCK_MONOTONIC)`: now, as the time since boot (less time suspended).
  public static func now() -> MonotonicInstant {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return MonotonicInstant(sinceOrigin: .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec))
  }
}
