/// Something the control layer did on its own that the user should hear of.
public enum ControlNote: Sendable, Hashable {
  /// A device left claimed by a transmitter that was killed was put back from its record.
  case leftoverRestored(device: String, pid: Int32)
  /// A record that cannot be trusted was ignored (and removed).
  case corruptRecordIgnored(path: String, reason: String)
}
