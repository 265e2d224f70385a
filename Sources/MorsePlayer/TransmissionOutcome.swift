/// How a transmission ended.
public enum TransmissionOutcome: Sendable, Hashable {
  /// Everything was sent.
  case completed
  /// It was cancelled (a signal, a rerun); the light is off.
  case cancelled
}
