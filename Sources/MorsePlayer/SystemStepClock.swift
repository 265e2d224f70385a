import Instants
import LinuxSystem
import MorseCore

/// The monotonic clock of the kernel (`CLOCK_MONOTONIC`), which no one can set back.
public struct SystemStepClock: StepClock {
  /// The system's monotonic clock.
  public init() {}

  /// The time since boot.
  public func now() -> MonotonicInstant {
    MonotonicTime.now()
  }

  /// Sleeps on the cancellation's event until the absolute deadline (`sem_clockwait`).
  public func wait(until deadline: MonotonicInstant, unlessCancelled cancellation: Cancellation)
    -> Bool
  {
    cancellation.wait(untilMonotonic: deadline)
  }
}
