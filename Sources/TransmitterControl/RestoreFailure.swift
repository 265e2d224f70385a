/// A transmission failed, and putting the device back failed too.
public struct RestoreFailure: Error, CustomStringConvertible {
  /// What stopped the transmission; it decides the exit status.
  public let error: any Error
  /// What went wrong while restoring the device.
  public let restoreError: any Error

  /// The transmission's `error`, and the `restoreError` that followed it.
  public init(error: any Error, restoreError: any Error) {
    self.error = error
    self.restoreError = restoreError
  }

  /// Both, the first one first.
  public var description: String {
    "\(error)\nalso, restoring the device failed: \(restoreError)"
  }
}
