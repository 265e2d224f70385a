import Instants
import LinuxSystem
import MorsePlayer
import Synchronization

/// A clock under the test's hand: each wait jumps straight to its deadline.
///
/// Actions scheduled at an instant run when a wait passes over it, with the clock set to
/// that instant — so a cancel "at 1000 ms" lands exactly mid-step.
public final class ManualStepClock: StepClock, Sendable {
  /// An action and the instant it is due.
  private typealias Scheduled = (instant: MonotonicInstant, action: @Sendable () -> Void)

  /// The time, what is due and what was asked; guarded by `state`.
  private struct State {
    var current: MonotonicInstant
    var actions: [Scheduled] = []
    var requested: [MonotonicInstant] = []
  }

  private let state: Mutex<State>
  private let lateness: Duration

  /// A clock at `start`; every wait overshoots its deadline by `lateness` (a slow wake-up).
  public init(start: MonotonicInstant = .origin, lateness: Duration = .zero) {
    state = Mutex(State(current: start))
    self.lateness = lateness
  }

  /// Every deadline a wait asked for, in order.
  public var deadlines: [MonotonicInstant] { state.withLock { $0.requested } }

  public func now() -> MonotonicInstant { state.withLock { $0.current } }

  /// Moves the clock forward by `duration` at once.
  public func advance(by duration: Duration) {
    state.withLock { $0.current = $0.current + duration }
  }

  /// Runs `action` when a wait passes `instant`.
  public func schedule(at instant: MonotonicInstant, _ action: @escaping @Sendable () -> Void) {
    state.withLock { state in
      state.actions.append((instant, action))
      state.actions.sort { $0.instant < $1.instant }
    }
  }

  public func wait(until deadline: MonotonicInstant, unlessCancelled cancellation: Cancellation)
    -> Bool
  {
    state.withLock { $0.requested.append(deadline) }
    while let due = takeAction(before: deadline) {
      due.action()
      if cancellation.isCancelled { return false }
    }
    if cancellation.isCancelled { return false }
    state.withLock { $0.current = max($0.current, deadline + lateness) }
    return true
  }

  private func takeAction(before deadline: MonotonicInstant) -> Scheduled? {
    state.withLock { state in
      guard let first = state.actions.first, first.instant <= deadline else { return nil }
      state.actions.removeFirst()
      state.current = max(state.current, first.instant)
      return first
    }
  }
}
