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

  /// The real-time priority asked for: low, above every normal thread and below the kernel's
  /// own threaded interrupts (50).
  public static let realTimePriority: Int32 = 10

  /// Asks for the least timer slack for the calling thread (so a wake-up is not deferred by
  /// up to 50 µs to batch it with others), then SCHED_FIFO and locked memory where allowed.
  public static func raiseForCurrentThread(realTime: Bool = true) -> TimingPriority {
    _ = morse_set_timer_slack(1)
    let isRealTime = realTime && morse_use_fifo(realTimePriority) == 0
    let isMemoryLocked = realTime && morse_lock_resident_memory() == 0
    return TimingPriority(
      timerSlackNanoseconds: max(0, morse_timer_slack()), isRealTime: isRealTime,
      isMemoryLocked: isMemoryLocked)
  }

  /// "timer slack 1 ns, SCHED_FIFO 10, memory locked".
  public var description: String {
    let scheduling = isRealTime ? "SCHED_FIFO \(Self.realTimePriority)" : "normal scheduling"
    return "timer slack \(timerSlackNanoseconds) ns, \(scheduling), "
      + (isMemoryLocked ? "memory locked" : "memory not locked")
  }
}
