import Instants
import LinuxSystem
import DeviceContract
import MorsePlayer
import Synchronization

/// A torch that records every switch with the time on a shared clock.
public final class RecordingTorch: Torch, Sendable {
  /// One switch of the light.
  public struct Event: Equatable, Sendable, CustomStringConvertible {
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
  private let failAtSet: Int?
  private let state = Mutex(State())

  /// What happened to it; guarded by `state`.
  private struct State {
    var recorded: [Event] = []
    var restores = 0
    var sets = 0
  }

  /// A torch timed by `clock`; `failAtSet` makes the Nth call of `set` (1-based) throw.
  public init(clock: any StepClock, failAtSet: Int? = nil) {
    self.clock = clock
    self.failAtSet = failAtSet
  }

  /// Every switch, in order.
  public var events: [Event] { state.withLock { $0.recorded } }
  /// How many times `restore` was called.
  public var restoreCount: Int { state.withLock { $0.restores } }
  /// Whether the light is on now.
  public var isOn: Bool { state.withLock { $0.recorded.last?.isOn ?? false } }

  public func set(_ isOn: Bool) throws {
    try state.withLock { (state) throws(InjectedFailure) in
      state.sets += 1
      if state.sets == failAtSet { throw InjectedFailure() }
      let since = clock.now().sinceOrigin.components
      let milliseconds =
        Double(since.seconds) * 1000 + Double(since.attoseconds) / 1_000_000_000_000_000
      state.recorded.append(Event(milliseconds: milliseconds, isOn: isOn))
    }
  }

  public func restore() {
    state.withLock { $0.restores += 1 }
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
