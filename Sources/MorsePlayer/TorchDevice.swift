import LinuxSystem

/// A device that can be claimed as a torch, one transmitter at a time, and put back even after
/// its transmitter was killed.
///
/// The transmitter-control layer is generic over it: it records `SavedState` before claiming,
/// so that a later run can `restore(_:)` the device from the record if the transmitter died
/// (SIGKILL, a power cut) before putting it back itself.
public protocol TorchDevice: Sendable {
  /// What the device looked like before it was claimed: enough to put it back.
  associatedtype SavedState: Codable, Sendable, Hashable
  /// The torch a claim hands out.
  associatedtype ClaimedTorch: Torch

  /// The name locks and records are kept under; unique among devices of this kind.
  var lockName: String { get }

  /// Reads the device's current state, changing nothing.
  func saveState() throws -> SavedState

  /// Takes the device over (its state read as `saved` just before): the torch switches it.
  /// Returns the state to restore as it is known once claimed (claiming may show that some of
  /// what was read is not the device's to restore).
  func claim(saved: SavedState) throws -> (torch: ClaimedTorch, saved: SavedState)

  /// Puts the device back as `saved` describes (after its transmitter died), with no more
  /// rights than `writer`, the user who wrote the record, has (nil: this process's own
  /// record, or one of a user with at least its rights). Returns what it left alone and why;
  /// throws if the device could not be put back.
  func restore(_ saved: SavedState, writer: UserRights?) throws -> [SkippedSetting]

  /// Whether `saved` holds values this kind of device could have saved: a record read from
  /// disk is checked with this before anything is written to the device.
  static func isPlausible(_ saved: SavedState) -> Bool
}
