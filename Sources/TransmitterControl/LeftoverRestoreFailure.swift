import DeviceContract

/// A device left claimed by a transmitter that died could not be put back from its record.
///
/// The record stays: every later run on the device tries again, and says so, until the cause
/// is fixed (or the record is removed to give up).
public struct LeftoverRestoreFailure: Error, CustomStringConvertible {
  /// The device.
  public let device: DeviceID
  /// The transmitter that died holding it.
  public let pid: Int32
  /// The record with the state to restore.
  public let recordPath: String
  /// Why writing the state back failed.
  public let error: any Error
  /// The user who wrote the record (its file's owner).
  public let writerID: UInt32?

  /// The failure to restore `device`, left by `pid`, from `recordPath`, which `writerID` wrote.
  public init(
    device: DeviceID, pid: Int32, recordPath: String, error: any Error, writerID: UInt32? = nil
  ) {
    self.device = device
    self.pid = pid
    self.recordPath = recordPath
    self.error = error
    self.writerID = writerID
  }

  /// What went wrong, where the state is, and what it blocks.
  public var description: String {
    "\(device) was left claimed by pid \(pid), and putting it back from \(recordPath) "
      + "failed: \(error)"
  }
}
