import DeviceContract

/// A transmission a rerun cancelled (the toggle), on one of the devices it wanted.
public struct CancelledTransmission: Sendable {
  /// The busy device it was found on.
  public let device: DeviceID
  /// The process that was sending.
  public let pid: Int32
  /// Its record, when it could be read: what it was sending, and on which devices.
  public let record: TransmissionRecord?
  /// The senders that were waiting for the device, also stopped.
  public let waiters: [Int32]
  /// The systemd service it ran in (a boot beacon), as the kernel said before it was stopped.
  public var unit: String? = nil
}
