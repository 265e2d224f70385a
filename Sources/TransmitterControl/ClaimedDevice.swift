import MorsePlayer

/// A device this process has claimed: the torch to send on, the observer that keeps its
/// record, and `finish` to put it all back.
public final class ClaimedDevice<Device: TorchDevice> {
  /// The torch that switches the device.
  public let torch: Device.ClaimedTorch
  /// Keeps the record `status` reads up to date: pass it to the transmitter as an observer.
  public let recordKeeper: RecordKeeper<Device.SavedState>
  private let deviceLock: DeviceLock
  private let stopListener: StopListener?

  init(
    torch: Device.ClaimedTorch, recordKeeper: RecordKeeper<Device.SavedState>,
    deviceLock: DeviceLock, stopListener: StopListener?
  ) {
    self.torch = torch
    self.recordKeeper = recordKeeper
    self.deviceLock = deviceLock
    self.stopListener = stopListener
  }

  /// The stop request that came from another process (`stop`, a rerun), if any.
  public var stopRequest: StopRequest? { stopListener?.request }

  /// Puts the device back, then removes the record, releases the device and answers any stop
  /// request (by closing its connection: the asker then finds the device free); returns how the
  /// transmission ended (`result`), or throws its error — a `RestoreFailure` when restoring
  /// failed, which keeps the record for the next run to try again.
  ///
  /// The device first: that is what a cancel waits for. The record goes last, once the device
  /// is back, so a kill in between still leaves what is needed to restore it.
  public func finish(_ result: Result<TransmissionOutcome, any Error>) throws
    -> TransmissionOutcome
  {
    let restored = Result { try torch.restore() }
    recordKeeper.stop()
    // The record goes only once the device is back: a failed restore is tried again later.
    if case .success = restored { deviceLock.removeRecord() }
    deviceLock.release()
    stopListener?.close()
    switch (result, restored) {
    case (.success(let outcome), .success):
      return outcome
    case (.failure(let error), .success):
      throw error
    case (.success, .failure(let restoreError)):
      throw RestoreFailure(
        error: nil, restoreError: restoreError, recordPath: deviceLock.files.record)
    case (.failure(let error), .failure(let restoreError)):
      throw RestoreFailure(
        error: error, restoreError: restoreError, recordPath: deviceLock.files.record)
    }
  }
}
