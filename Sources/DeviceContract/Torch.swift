import LinuxSystem

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
  /// Puts the device back as `restore()` would, for a while (the process is about to be
  /// stopped: Ctrl-Z), but keeps it claimed: a switch until `resume()` is remembered, not
  /// made. It comes from another thread than the switches (the signal watcher's): a torch
  /// that implements it orders it with `set` and `restore` by a lock. By default nothing is
  /// put back.
  func suspend() throws
  /// Takes the device again after `suspend()`, in the state last switched. By default nothing.
  func resume() throws
  /// What the restore left alone, and of which device (a setting of a trigger that went away
  /// meanwhile), for the caller to warn of. By default nothing.
  var settingsLeftAlone: [(device: DeviceID, setting: SkippedSetting)] { get }
  /// How long after a switch it shows: a sound is heard once what is ahead of it in the
  /// player has played. Torches switched together (`TorchGroup`) hold the others back by
  /// the difference, so that all show each edge together. By default none.
  var latency: Duration { get }
  /// The transmission ended as planned: returns once every switch made has shown (the
  /// sound's last mark played out), before the restore. A restore without it (a stop, an
  /// error) drops what has not. By default returns at once.
  func drain() throws
}

extension Torch {
  /// Watches nothing.
  public func reportFailures(to cancellation: Cancellation) {}
  /// Nothing to put back (a preview, a virtual torch).
  public func suspend() throws {}
  /// Nothing to take again.
  public func resume() throws {}
  /// Nothing left alone.
  public var settingsLeftAlone: [(device: DeviceID, setting: SkippedSetting)] { [] }
  /// Shows at once.
  public var latency: Duration { .zero }
  /// Nothing in flight.
  public func drain() throws {}
}
