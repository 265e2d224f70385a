import DeviceContract
import LinuxSystem
import TransmitterControl

extension ControlNote {
  /// The note as the user reads it, for an LED.
  var message: String {
    switch self {
    case .leftoverRestored(let device, let pid, _, let skipped, let writer):
      // The pid is only what the record says; its file's owner is known for sure.
      let whose = writer.map { $0 == CurrentProcess.effectiveUserID ? "" : " of user \($0)" } ?? ""
      return "restored \(DeviceNames.naming([device])), left claimed by morsetorch pid \(pid)"
        + "\(whose) (killed before it could restore it)"
        + skipped.map { "\nwarning: " + $0.message(device: device) }.joined()
    case .corruptRecordIgnored(let path, let reason):
      return "ignoring the state record \(shown: path): \(reason)"
    case .noStopSocket(let path, let errno):
      return "warning: cannot make the stop socket \(TerminalText.escaped(path)): \(errno); "
        + "morsetorch stop and reruns by other users cannot stop this send (root's still can)"
    }
  }
}

extension SkippedSetting {
  /// "left delay_on of vm::a alone: …", for a restore of `device`.
  func message(device: DeviceID) -> String {
    let why: String
    switch reason {
    case .gone: why = "it no longer exists"
    case .notTriggerSetting(let trigger):
      why = "it is no setting of the trigger \(trigger) (the trigger makes no such file)"
    case .writerMayNotWrite(let writer):
      why = "the record was written by \(writer), who may not write it"
    }
    return "left \(TerminalText.escaped(name)) of \(DeviceNames.naming([device])) alone: \(why)"
  }
}

extension UnsharedRuntime {
  /// The warning a member of the group reads when the shared directory is not there yet.
  var message: String {
    "warning: the shared runtime directory \(shown: missing) does not exist yet, so this "
      + "transmission is kept in your own \(shown: used), where other users' status and stop "
      + "cannot see it (yours still find it, wherever it started); the package's tmpfiles line "
      + "makes it at boot where systemd runs, and any morsetorch command run by root makes it "
      + "(`sudo morsetorch status`), or: `sudo install -d -m 3770 -g \(groupName) \(shown: missing)`"
  }
}
