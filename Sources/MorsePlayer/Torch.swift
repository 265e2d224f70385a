/// A light that can be switched on and off, and put back the way it was found.
///
/// Every conforming type promises the `Halt` contract of periph.io: after `restore()` the
/// device is off (if it was found off) and its original settings are back, whatever happened
/// before — success, cancellation or an error.
public protocol Torch: AnyObject {
  /// Switches the light on (`true`) or off (`false`).
  func set(_ isOn: Bool) throws
  /// Switches the light off, then writes back the state saved when the torch was claimed.
  func restore() throws
  /// Starts noticing a failure between two switches (a device that went away) and reports it
  /// with `cancellation.fail(_:)`, which wakes the waiting step. By default nothing is watched:
  /// failures show at the next switch.
  func reportFailures(to cancellation: Cancellation)
}

extension Torch {
  /// Watches nothing.
  public func reportFailures(to cancellation: Cancellation) {}
}
