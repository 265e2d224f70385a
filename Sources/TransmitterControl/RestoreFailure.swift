import DeviceContract

/// Putting a device back failed (after the transmission, or after it failed too).
///
/// The device's saved state stays in its record, so the next run on the device tries again:
/// nothing is forgotten until a restore succeeds.
public struct RestoreFailure: Error, CustomStringConvertible {
  /// One device that could not be put back.
  public struct Device: Sendable {
    /// Which device.
    public let device: DeviceID
    /// What went wrong while restoring it.
    public let error: any Error
    /// The record kept with the state to restore.
    public let recordPath: String

    /// `name` failed to restore with `error`; its state is kept in `recordPath`.
    public init(device: DeviceID, error: any Error, recordPath: String) {
      self.device = device
      self.error = error
      self.recordPath = recordPath
    }
  }

  /// What stopped the transmission, if something did; it decides the exit status then.
  public let error: (any Error)?
  /// The devices that could not be put back (at least one), in lock order.
  public let failed: [Device]

  /// Failed restores, after `error` (nil: the transmission itself went well).
  public init(error: (any Error)?, failed: [Device]) {
    precondition(!failed.isEmpty, "a restore failure names a device")
    self.error = error
    self.failed = failed
  }

  /// The first restore error.
  public var restoreError: any Error { failed[0].error }
  /// The first kept record.
  public var recordPath: String { failed[0].recordPath }

  /// The error first, then each failed restore and where its state is kept.
  public var description: String {
    let restores = failed.map {
      "restoring \($0.device) failed: \($0.error); its state is kept in \($0.recordPath)"
    }
    return ((error.map { ["\($0)"] } ?? []) + restores).joined(separator: "\nalso, ")
  }
}
