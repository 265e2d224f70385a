/// What reserving devices by a `ConflictPolicy` came to.
public enum Reservation {
  /// The devices are ours: claim them with `TransmitterSession.claim`.
  case reserved(TransmitterSession)
  /// Other processes' transmissions on the busy devices were cancelled, with the senders
  /// waiting for those devices, and nothing is to be sent (`toggle`). `notes` say what was
  /// restored on the way.
  case cancelledOthers([CancelledTransmission], notes: [ControlNote])
  /// The wait for the devices was cancelled before anything was sent: by a signal, or by
  /// `request` (another process's `stop` or rerun).
  case cancelledWhileWaiting(request: StopRequest?)
}
