/// A point in time: on the monotonic clock (`MonotonicTime.now()`, a GPIO line's or a camera's
/// kernel timestamps), on a virtual step clock, or on the timeline of a file of edges or a
/// video (seconds from its start): the time since that clock's origin. Lengths of time are
/// `Duration`s; points are these, in every module (the player's deadlines, the receiver's edges
/// and frames).
///
/// The standard library's `InstantProtocol`, so generic code over instants (and
/// `advanced(by:)`, `duration(to:)`) works with it as with `ContinuousClock.Instant`.
public struct MonotonicInstant: InstantProtocol, CustomStringConvertible {
  /// The time since the clock's origin (boot, for the monotonic clock; zero, for virtual time).
  public let sinceOrigin: Duration

  /// The instant `sinceOrigin` after the clock's origin.
  public init(sinceOrigin: Duration) {
    self.sinceOrigin = sinceOrigin
  }

  /// The origin itself.
  public static let origin = MonotonicInstant(sinceOrigin: .zero)

  /// The instant `duration` later.
  public func advanced(by duration: Duration) -> MonotonicInstant {
    MonotonicInstant(sinceOrigin: sinceOrigin + duration)
  }

  /// The time from this instant to `other`.
  public func duration(to other: MonotonicInstant) -> Duration {
    other.sinceOrigin - sinceOrigin
  }

  /// Orders instants by time.
  public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
    lhs.sinceOrigin < rhs.sinceOrigin
  }

  /// The instant `duration` later.
  public static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
    lhs.advanced(by: rhs)
  }

  /// Moves the instant `duration` later.
  public static func += (lhs: inout MonotonicInstant, rhs: Duration) {
    lhs = lhs.advanced(by: rhs)
  }

  /// The instant `duration` earlier.
  public static func - (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
    lhs.advanced(by: .zero - rhs)
  }

  /// The time from `rhs` to `lhs`.
  public static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Duration {
    rhs.duration(to: lhs)
  }

  /// The instant in milliseconds since the origin, to the microsecond.
  public var description: String {
    let microseconds = sinceOrigin / .microseconds(1)
    return "\(Double(Int64(microseconds.rounded())) / 1000) ms"
  }
}
