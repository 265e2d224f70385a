/// What is in a device's state record.
public enum RecordContent: Sendable, Hashable {
  /// There is no record.
  case none
  /// A valid record.
  case record(TransmissionRecord)
  /// A record that cannot be trusted: reported and then ignored.
  case corrupt(path: String, reason: String)
}
