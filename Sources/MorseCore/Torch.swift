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
}
