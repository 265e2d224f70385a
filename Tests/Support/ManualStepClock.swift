import LinuxSystem
import MorsePlayer

/// A clock under the test's hand: each wait jumps straight to its deadline.
///
/// Actions scheduled at an instant run when a wait passes over it, with the clock set to
/// that instant — so a cancel "at 1000 ms" lands exactly mid-step.
public final class ManualStepClock: StepClock, @unchecked Sendable {
  private let lock = Lock()
  private var current: MonotonicInstant
  private var actions: [(instant: MonotonicInstant, action: () -> Void)] = []
  private var requested: [MonotonicInstant] = []
  private let lateness: Duration

  /// A clock at `start`; every wait overshoots its deadline by `lateness` (a slow wake-up).
  public init(start: MonotonicInstant = .origin, lateness: Duration = .zero) {
    current = start
    self.lateness = lateness
  }

  /// Every deadline a wait asked for, in order.
  public var deadlines: [MonotonicInstant] { lock.withLock { requested } }

  public func now() -> MonotonicInstant { lock.withLock { current } }

  /// Moves the clock forward by `duration` at once.
  public func advance(by duration: Duration) {
    lock.withLock { current = current + duration }
  }

  /// Runs `action` when a wait passes `instant`.
  public func schedule(at instant: MonotonicInstant, _ action: @escaping () -> Void) {
    lock.withLock {
      actions.append((instant, action))
      actions.sort { $0.instant < $1.instant }
    }
  }

  public func wait(until deadline: MonotonicInstant, unlessCancelled cancellation: Cancellation)
    -> Bool
  {
    lock.withLock { requested.append(deadline) }
    while let due = takeAction(before: deadline) {
      due.action()
      if cancellation.isCancelled { return false }
    }
    if cancellation.isCancelled { return false }
    lock.withLock { current = max(current, deadline + lateness) }
    return true
  }

  private func takeAction(before deadline: MonotonicInstant) -> (
    instant: MonotonicInstant, action: () -> Void
  )? {
    lock.withLock {
      guard let first = actions.first, first.instant <= deadline else { return nil }
      actions.removeFirst()
      current = max(current, first.instant)
      return first
    }
  }
}
