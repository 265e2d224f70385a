import Instants
import LinuxSystem
import Synchronization

/// Virtual time that jumps straight to each deadline: a dry run takes no time at all.
public final class VirtualStepClock: StepClock, Sendable {
  private let current: Mutex<MonotonicInstant>

  /// A clock that starts at `start`.
  public init(start: MonotonicInstant = .origin) {
    current = Mutex(start)
  }

  /// The virtual now.
  public func now() -> MonotonicInstant {
    current.withLock { $0 }
  }

  /// Jumps to the deadline (never back) unless already cancelled.
  public func wait(until deadline: MonotonicInstant, unlessCancelled cancellation: Cancellation)
    -> Bool
  {
    if cancellation.isCancelled { return false }
    current.withLock { $0 = max($0, deadline) }
    return true
  }
}
