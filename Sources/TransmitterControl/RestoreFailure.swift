/// Putting the device back failed (after the transmission, or after it failed too).
///
/// The device's saved state stays in its record (`recordPath`), so the next run on the device
/// tries again: nothing is forgotten until a restore succeeds.
public struct RestoreFailure: Error, CustomStringConvertible {
  /// What stopped the transmission, if something did; it decides the exit status then.
  public let error: (any Error)?
  /// What went wrong while restoring the device.
  public let restoreError: any Error
  /// The record kept with the state to restore.
  public let recordPath: String

  /// A failed restore, after `error` (nil: the transmission itself went well).
  public init(error: (any Error)?, restoreError: any Error, recordPath: String) {
    self.error = error
    self.restoreError = restoreError
    self.recordPath = recordPath
  }

  /// Both, the first one first, and where the state is kept.
  public var description: String {
    let restore = "restoring the device failed: \(restoreError); its state is kept in \(recordPath)"
    guard let error else { return restore }
    return "\(error)\nalso, \(restore)"
  }
}
