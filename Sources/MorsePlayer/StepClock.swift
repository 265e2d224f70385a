import Instants
import LinuxSystem
import MorseCore

/// The time source of a transmission: tells the time and waits for a deadline.
///
/// Time is injected like the torch (embedded-hal's `DelayNs`): the executable uses
/// `SystemStepClock`, a dry run `VirtualStepClock`, the tests a manual clock.
public protocol StepClock: Sendable {
  /// The current instant.
  func now() -> MonotonicInstant
  /// Waits until `deadline`, or less if `cancellation` fires first; returns whether the
  /// deadline was reached (false: cancelled).
  func wait(until deadline: MonotonicInstant, unlessCancelled cancellation: Cancellation) -> Bool
}
