import LinuxSystem

/// A device that can be claimed as a torch, one transmitter at a time, and put back even after
/// its transmitter was killed.
///
/// The transmitter-control layer keeps each device's saved state, as plain fields, in a state
/// record before claiming it, so that a later run can `restore(_:writer:)` the device from
/// the record if the transmitter died (SIGKILL, a power cut) before putting it back itself.
public protocol TorchDevice: Sendable {
  /// Which device it is.
  var id: DeviceID { get }

  /// Reads the device's current state, changing nothing.
  func saveState() throws -> SavedFields

  /// Takes the device over (its state read as `saved` just before): the torch switches it.
  /// Returns the state to restore as it is known once claimed (claiming may show that some of
  /// what was read is not the device's to restore).
  func claim(saved: SavedFields) throws -> (torch: any Torch, saved: SavedFields)

  /// Puts the device back as `saved` describes (after its transmitter died), with no more
  /// rights than `writer`, the user who wrote the record, has (nil: this process's own
  /// record, or one of a user with at least its rights). Returns what it left alone and why;
  /// throws if the device could not be put back.
  func restore(_ saved: SavedFields, writer: UserRights?) throws -> [SkippedSetting]

  /// Whether `saved` holds values this kind of device could have saved: a record read from
  /// disk is checked with this before anything is written to the device.
  func isPlausible(_ saved: SavedFields) -> Bool
}
