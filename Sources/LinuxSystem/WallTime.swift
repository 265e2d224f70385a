import Glibc

/// The wall clock (`CLOCK_REALTIME`), for showing when something started.
public enum WallTime {
  /// Seconds since 1970 (`clock_gettime(CLOCK_REALTIME)`).
  public static func secondsSince1970() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
