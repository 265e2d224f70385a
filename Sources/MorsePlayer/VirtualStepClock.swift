import LinuxSystem
import MorseCore

/// Virtual time that jumps straight to each deadline: a dry run takes no time at all.
public final class VirtualStepClock: StepClock, @unchecked Sendable {
  private let lock = Lock()
  private var current: MonotonicInstant

  /// A clock that starts at `start`.
  public init(start: MonotonicInstant = .origin) {
    current = start
  }

  /// The virtual now.
  public func now() -> MonotonicInstant {
    lock.withLock { current }
  }

  /// Jumps to the deadline (never back) unless already cancelled.
  public func wait(until deadline: MonotonicInstant, unlessCancelled cancellation: Cancellation)
    -> Bool
  {
    if cancellation.isCancelled { return false }
    lock.withLock { current = max(current, deadline) }
    return true
  }
}
