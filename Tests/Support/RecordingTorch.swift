import LinuxSystem
import MorsePlayer

/// A torch that records every switch with the time on a shared clock.
public final class RecordingTorch: Torch, @unchecked Sendable {
  /// One switch of the light.
  public struct Event: Equatable, CustomStringConvertible {
    /// Milliseconds since the clock's origin.
    public let milliseconds: Double
    /// The new state.
    public let isOn: Bool

    public var description: String { "\(isOn ? "on" : "off")@\(milliseconds)" }

    /// A switch to `isOn` at `milliseconds`.
    public init(milliseconds: Double, isOn: Bool) {
      self.milliseconds = milliseconds
      self.isOn = isOn
    }
  }

  /// Thrown by `set` when told to fail.
  public struct InjectedFailure: Error, Equatable {
    public init() {}
  }

  private let clock: any StepClock
  private let lock = Lock()
  private var recorded: [Event] = []
  private var restores = 0
  private var failAtSet: Int?
  private var sets = 0

  /// A torch timed by `clock`; `failAtSet` makes the Nth call of `set` (1-based) throw.
  public init(clock: any StepClock, failAtSet: Int? = nil) {
    self.clock = clock
    self.failAtSet = failAtSet
  }

  /// Every switch, in order.
  public var events: [Event] { lock.withLock { recorded } }
  /// How many times `restore` was called.
  public var restoreCount: Int { lock.withLock { restores } }
  /// Whether the light is on now.
  public var isOn: Bool { lock.withLock { recorded.last?.isOn ?? false } }

  public func set(_ isOn: Bool) throws {
    try lock.withLock {
      sets += 1
      if sets == failAtSet { throw InjectedFailure() }
      let since = clock.now().sinceOrigin.components
      let milliseconds =
        Double(since.seconds) * 1000 + Double(since.attoseconds) / 1_000_000_000_000_000
      recorded.append(Event(milliseconds: milliseconds, isOn: isOn))
    }
  }

  public func restore() {
    lock.withLock { restores += 1 }
  }
}

/// Milliseconds as an instant since the origin.
public func at(_ milliseconds: Int) -> MonotonicInstant {
  MonotonicInstant(sinceOrigin: .milliseconds(milliseconds))
}

/// Shorthand for an expected timeline: alternating on/off events at these milliseconds.
public func timeline(_ milliseconds: [Double]) -> [RecordingTorch.Event] {
  milliseconds.enumerated().map { RecordingTorch.Event(milliseconds: $1, isOn: $0 % 2 == 0) }
}
