import DeviceContract
import MorsePlayer

/// The devices this process has claimed: one torch that switches them all, the observers
/// that keep their records, and `finish` to put it all back.
public final class ClaimedDevices {
  /// The torch that switches every device together.
  public let torch: TorchGroup
  /// Keep the records `status` reads up to date, one per device: pass them to the transmitter
  /// as observers.
  public let recordKeepers: [RecordKeeper]
  private let deviceLocks: [DeviceLock]
  private let stopListeners: [StopListener]

  init(
    torches: [any Torch], recordKeepers: [RecordKeeper],
    deviceLocks: [DeviceLock], stopListeners: [StopListener]
  ) {
    torch = TorchGroup(torches)
    self.recordKeepers = recordKeepers
    self.deviceLocks = deviceLocks
    self.stopListeners = stopListeners
  }

  /// The stop request that came from another process (`stop`, a rerun), if any.
  public var stopRequest: StopRequest? { stopListeners.lazy.compactMap(\.request).first }

  /// Puts every device back, then removes their records, releases them and answers any stop
  /// request (by closing its connection: the asker then finds the device free); returns how the
  /// transmission ended (`result`), or throws its error — a `RestoreFailure` when restoring
  /// any device failed, which keeps that device's record for the next run to try again.
  ///
  /// The devices first: that is what a cancel waits for. A record goes last, once its device
  /// is back, so a kill in between still leaves what is needed to restore it.
  public func finish(_ result: Result<TransmissionOutcome, any Error>) throws
    -> TransmissionOutcome
  {
    // A transmission that ended as planned shows its last edge on every device first (a
    // sound's last mark plays out); a stop or an error puts them back at once.
    var result = result
    if case .success(.completed) = result {
      do { try torch.drain() } catch { result = .failure(error) }
    }
    // Each one, whatever the others do: one LED that vanished leaves the rest restored.
    let restored = torch.restoreEach()
    recordKeepers.forEach { $0.stop() }
    var failed: [RestoreFailure.Device] = []
    for (deviceLock, outcome) in zip(deviceLocks, restored) {
      switch outcome {
      case .success: deviceLock.removeRecord()
      case .failure(let error):
        failed.append(
          RestoreFailure.Device(
            device: deviceLock.device, error: error, recordPath: deviceLock.files.record))
      }
    }
    deviceLocks.forEach { $0.release() }
    stopListeners.forEach { $0.close() }
    if !failed.isEmpty {
      throw RestoreFailure(error: result.failure, failed: failed)
    }
    return try result.get()
  }
}

extension Result {
  /// The error, if it is a failure.
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
