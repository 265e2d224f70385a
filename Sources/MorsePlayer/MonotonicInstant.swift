import MorseCore

/// A point in time on a step clock: the time since that clock's origin.
public struct MonotonicInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The time since the clock's origin (boot, for the monotonic clock; zero, for virtual time).
  public let sinceOrigin: Duration

  /// The instant `sinceOrigin` after the clock's origin.
  public init(sinceOrigin: Duration) {
    self.sinceOrigin = sinceOrigin
  }

  /// The origin itself.
  public static let origin = MonotonicInstant(sinceOrigin: .zero)

  /// Orders instants by time.
  public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
    lhs.sinceOrigin < rhs.sinceOrigin
  }

  /// The instant `duration` later.
  public static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
    MonotonicInstant(sinceOrigin: lhs.sinceOrigin + rhs)
  }

  /// The time from `rhs` to `lhs`.
  public static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Duration {
    lhs.sinceOrigin - rhs.sinceOrigin
  }

  /// The instant in milliseconds since the origin.
  public var description: String { sinceOrigin.millisecondsText + " ms" }
}
