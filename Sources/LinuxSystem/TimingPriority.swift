import CLinuxSystem

/// What the thread that keeps the deadlines may ask of the kernel, and what it got.
///
/// Nothing here is required: each request is made where the user has the right to it, and a
/// refusal only means the default (timer slack, scheduling, paging) stays.
public struct TimingPriority: Sendable, Hashable, CustomStringConvertible {
  /// The thread's timer slack afterwards, in nanoseconds (Linux's default is 50 000).
  public let timerSlackNanoseconds: Int
  /// Whether the thread runs SCHED_FIFO (a real-time priority: root, CAP_SYS_NICE, or an
  /// RLIMIT_RTPRIO that allows it).
  public let isRealTime: Bool
  /// Whether the pages the process holds are locked in memory (no page-in on the timing path).
  public let isMemoryLocked: Bool
  /// The memory limit (bytes) under which locking was not asked for, being too close to what
  /// would be locked (`largestLockedShareOfLimit`); nil if it was asked for, or not at all.
  public let lockingDeclinedUnderLimit: UInt64?

  /// The largest share of the smallest memory limit over the process that it locks: a
  /// quarter. Locked pages cannot be reclaimed, so under a limit near their size the
  /// limit's OOM killer picks the sender for its locking (the benchmark's `pressure`: killed
  /// in 7 of 9 runs under 16 MB, with about 6 MB of its 10 MB executable locked); from four
  /// times what may be locked up the
  /// limit leaves the rest of the cgroup room, and the locked pages keep the timing path
  /// from waiting on a page read from disk.
  public static let largestLockedShareOfLimit = 0.25

  /// The real-time priority asked for: low, above every normal thread and below the kernel's
  /// own threaded interrupts (50).
  public static let realTimePriority: Int32 = 10

  /// Asks for the least timer slack for the calling thread (so a wake-up is not deferred by
  /// up to 50 µs to batch it with others), then SCHED_FIFO and locked memory where allowed.
  /// Memory is locked only where the smallest memory limit over the process is at least
  /// what the locking may hold (`MemoryLimit.lockableBytes()`) over
  /// `largestLockedShareOfLimit`.
  ///
  /// What was got is returned for the benchmark, which prints it. `send` asks and goes on
  /// either way: a refusal is no error, and saying it on every send would be noise about a
  /// default most users keep (the manual's TIMING section says what each right buys).
  @discardableResult
  public static func raiseForCurrentThread(
    realTime: Bool = true, limit: UInt64? = MemoryLimit.smallestLimit(),
    lockable: UInt64 = MemoryLimit.lockableBytes()
  ) -> TimingPriority {
    _ = morse_set_timer_slack(1)
    let isRealTime = realTime && morse_use_fifo(realTimePriority) == 0
    let declinedUnder = realTime ? limitTooClose(limit, toLocking: lockable) : nil
    let isMemoryLocked = realTime && declinedUnder == nil && morse_lock_resident_memory() == 0
    return TimingPriority(
      timerSlackNanoseconds: max(0, morse_timer_slack()), isRealTime: isRealTime,
      isMemoryLocked: isMemoryLocked, lockingDeclinedUnderLimit: declinedUnder)
  }

  /// `limit` if locking `lockable` bytes would take more than `largestLockedShareOfLimit` of
  /// it; nil when there is no limit, or it leaves room enough.
  static func limitTooClose(_ limit: UInt64?, toLocking lockable: UInt64) -> UInt64? {
    guard let limit, Double(lockable) > Double(limit) * largestLockedShareOfLimit else {
      return nil
    }
    return limit
  }

  /// "timer slack 1 ns, SCHED_FIFO 10, memory locked".
  public var description: String {
    let scheduling = isRealTime ? "SCHED_FIFO \(Self.realTimePriority)" : "normal scheduling"
    let memory =
      isMemoryLocked
      ? "memory locked"
      : lockingDeclinedUnderLimit.map { "memory not locked (under a \($0 >> 20) MB limit)" }
        ?? "memory not locked"
    return "timer slack \(timerSlackNanoseconds) ns, \(scheduling), \(memory)"
  }
}
