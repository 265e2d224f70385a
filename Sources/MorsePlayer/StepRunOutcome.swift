import Instants
import LinuxSystem
import MorseCore

/// How a run of steps ended.
public enum StepRunOutcome: Sendable, Hashable {
  /// Every step ran; the light went off at `end`.
  case completed(end: MonotonicInstant)
  /// The run was cancelled; the light is off.
  case cancelled
}
