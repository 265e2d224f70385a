import Glibc

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

/// The monotonic clock of the kernel (`CLOCK_MONOTONIC`), which no one can set back.
public struct SystemStepClock: StepClock {
  /// The system's monotonic clock.
  public init() {}

  /// `clock_gettime(CLOCK_MONOTONIC)`.
  public func now() -> MonotonicInstant {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return MonotonicInstant(sinceOrigin: .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec))
  }

  /// Sleeps on the cancellation's condition variable until the absolute deadline.
  public func wait(until deadline: MonotonicInstant, unlessCancelled cancellation: Cancellation)
    -> Bool
  {
    cancellation.wait(untilMonotonic: deadline)
  }

}

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

extension Duration {
  /// Milliseconds with up to three decimals and no trailing zeros: "100", "92.308".
  public var millisecondsText: String {
    let (seconds, attoseconds) = components
    let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    let rounded = (attoseconds / 1_000_000) % 1_000_000 >= 500_000 ? microseconds + 1 : microseconds
    let sign = rounded < 0 ? "-" : ""
    let magnitude = rounded.magnitude
    let whole = magnitude / 1000
    var fraction = String(magnitude % 1000)
    guard fraction != "0" else { return "\(sign)\(whole)" }
    fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(sign)\(whole).\(fraction)"
  }
}
