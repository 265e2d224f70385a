import DeviceContract
import LinuxSystem

/// Something the control layer did on its own that the user should hear of.
public enum ControlNote: Sendable, Hashable {
  /// A device left claimed by a transmitter that was killed was put back from its record.
  /// `companions` are the other devices that transmitter had claimed with it, which may be
  /// left claimed too; `skipped`, what of the record was left alone (see `SkippedSetting`);
  /// `writerID`, the user whose record it was (only the record says which process it was).
  case leftoverRestored(
    device: DeviceID, pid: Int32, companions: [DeviceID] = [], skipped: [SkippedSetting] = [],
    writerID: UInt32? = nil)
  /// A record that cannot be used was ignored (and removed, by a sender on its device).
  case corruptRecordIgnored(path: String, reason: String)
  /// The stop socket at `path` could not be made: only a signal stops this transmission,
  /// and only a user who may signal it (itself, root) can send one.
  case noStopSocket(path: String, errno: Errno)
}
