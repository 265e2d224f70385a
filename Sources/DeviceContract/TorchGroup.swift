import LinuxSystem

/// Several torches switched as one: every member at the same deadline, in order, a few
/// microseconds apart; where one shows later than the others (a sound's `latency`), each of
/// the others is switched that much later (`DelayedTorch`), so that all show together.
///
/// A failure of one member stops the switch there and is thrown (the transmission ends, and
/// its caller restores every member); `restore()` restores every member even when some fail,
/// then throws the first failure.
public final class TorchGroup: Torch {
  /// The torches, in the order they are switched.
  public let members: [any Torch]
  /// What is switched: each member, held back where another shows later.
  private let switched: [any Torch]

  /// The group of `members` (at least one).
  public init(_ members: [any Torch]) {
    precondition(!members.isEmpty, "a torch group needs a member")
    self.members = members
    let latest = members.map(\.latency).max() ?? .zero
    switched = members.map { member in
      member.latency < latest ? DelayedTorch(member, by: latest - member.latency) : member
    }
  }

  /// Shows as late as its latest member.
  public var latency: Duration { switched.map(\.latency).max() ?? .zero }

  /// Switches every member, in order.
  public func set(_ isOn: Bool) throws {
    for member in switched { try member.set(isOn) }
  }

  /// Restores every member, then throws the first failure, if any.
  public func restore() throws {
    try forEachMember { try $0.restore() }
  }

  /// Restores each member, even after one fails: each one's outcome, in order.
  public func restoreEach() -> [Result<Void, any Error>] {
    switched.map { member in Result { try member.restore() } }
  }

  /// Waits for every member to show what it was switched to.
  public func drain() throws {
    try forEachMember { try $0.drain() }
  }

  /// Calls `body` on every member, even after one fails; then throws the first failure.
  private func forEachMember(_ body: (any Torch) throws -> Void) throws {
    var firstFailure: (any Error)?
    for member in switched {
      do {
        try body(member)
      } catch {
        if firstFailure == nil { firstFailure = error }
      }
    }
    if let firstFailure { throw firstFailure }
  }

  /// Puts every member back (each of them, even when one fails), then throws the first failure.
  public func suspend() throws {
    try forEachMember { try $0.suspend() }
  }

  /// Takes every member again, then throws the first failure.
  public func resume() throws {
    try forEachMember { try $0.resume() }
  }

  /// What every member's restore left alone.
  public var settingsLeftAlone: [(device: DeviceID, setting: SkippedSetting)] {
    switched.flatMap(\.settingsLeftAlone)
  }

  /// Every member reports its own failures.
  public func reportFailures(to cancellation: Cancellation) {
    for member in switched { member.reportFailures(to: cancellation) }
  }
}
