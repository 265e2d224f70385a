import TransmitterControl

extension ControlNote {
  /// The note as the user reads it, for an LED.
  var message: String {
    switch self {
    case .leftoverRestored(let device, let pid, _):
      return "restored \(DeviceNames.naming([device])), left claimed by morsetorch pid \(pid) "
        + "(killed before it could restore it)"
    case .corruptRecordIgnored(let path, let reason):
      return "ignoring the state record \(path): \(reason)"
    }
  }
}
