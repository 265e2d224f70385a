import MorsePlayer

/// What reserving a device by a `ConflictPolicy` came to.
public enum Reservation<Device: TorchDevice> {
  /// The device is ours: claim it with `TransmitterSession.claim`.
  case reserved(TransmitterSession<Device>)
  /// Another process's transmission was cancelled, and nothing is to be sent (`toggle`).
  case cancelledOther(
    pid: Int32, record: TransmissionRecord<Device.SavedState>?, notes: [ControlNote])
  /// The wait for the device was cancelled (a signal) before anything was sent.
  case cancelledWhileWaiting
}
