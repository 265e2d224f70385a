import MorsePlayer

/// What reserving a device by a `ConflictPolicy` came to.
public enum Reservation<Device: TorchDevice> {
  /// The device is ours: claim it with `TransmitterSession.claim`.
  case reserved(TransmitterSession<Device>)
  /// Another process's transmission was cancelled, and the senders waiting for the device
  /// (`waiters`, their pids), and nothing is to be sent (`toggle`).
  case cancelledOther(
    pid: Int32, record: TransmissionRecord<Device.SavedState>?, waiters: [Int32],
    notes: [ControlNote])
  /// The wait for the device was cancelled before anything was sent: by a signal, or by
  /// `request` (another process's `stop` or rerun).
  case cancelledWhileWaiting(request: StopRequest?)
}
