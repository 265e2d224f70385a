import LinuxSystem
import MorsePlayer

/// One process's use of one device, from reservation to release.
///
/// In order: `reserve` the device by the conflict policy (restoring it from a record a killed
/// transmitter left); `claim` it, which saves its state, records it and hands out the torch;
/// transmit; `ClaimedDevice.finish`, which puts it back, removes the record and releases it.
/// Every path out restores what was claimed.
public final class TransmitterSession<Device: TorchDevice> {
  /// The device.
  public let device: Device
  /// Where locks and records live.
  public let runtime: RuntimeDirectory
  /// What was done on the way in: a leftover restored, a corrupt record ignored.
  public let notes: [ControlNote]
  let deviceLock: DeviceLock
  private let stopListener: StopListener?

  private init(
    device: Device, runtime: RuntimeDirectory, deviceLock: DeviceLock, cancellation: Cancellation
  ) throws {
    self.device = device
    self.runtime = runtime
    self.deviceLock = deviceLock
    notes = try Self.restoreLeftover(of: device, holding: deviceLock).map { [$0] } ?? []
    // Without the socket (a runtime path too long for one), others fall back to signals.
    stopListener = try? StopListener(path: deviceLock.files.stopDoor, cancelling: cancellation)
  }

  /// Reserves `device` by `policy`: takes it if it is free; otherwise cancels its transmission
  /// and every sender waiting for it, and stops there (`toggle`: a rerun is an off switch),
  /// cancels what holds it until it is free (`replace`), or waits in turn (`wait`).
  /// `cancellation` stops a wait, and is what a stop request to this session fires.
  public static func reserve(
    _ device: Device, in runtime: RuntimeDirectory, policy: ConflictPolicy,
    cancellation: Cancellation
  ) throws -> Reservation<Device> {
    let name = device.lockName
    let session = { (deviceLock: DeviceLock) throws -> Reservation<Device> in
      .reserved(
        try TransmitterSession(
          device: device, runtime: runtime, deviceLock: deviceLock, cancellation: cancellation))
    }
    switch policy {
    case .toggle:
      switch try DeviceLock.tryAcquire(name, in: runtime) {
      case .acquired(let deviceLock):
        return try session(deviceLock)
      case .busy:
        return try cancelOther(device, in: runtime, policy: policy, cancellation: cancellation)
      }
    case .replace:
      while !cancellation.isCancelled {
        switch try DeviceLock.tryAcquire(name, in: runtime) {
        case .acquired(let deviceLock): return try session(deviceLock)
        case .busy: _ = try Transmissions.stop(name, in: runtime, unless: cancellation)
        }
      }
      return .cancelledWhileWaiting(request: nil)
    case .wait:
      switch try DeviceLock.acquireInTurn(name, in: runtime, cancellation: cancellation) {
      case .acquired(let deviceLock): return try session(deviceLock)
      case .cancelled(let request): return .cancelledWhileWaiting(request: request)
      }
    }
  }

  /// The toggle: stops the senders waiting for `device`, then the transmission holding it, and
  /// restores the device if its holder had to be killed.
  private static func cancelOther(
    _ device: Device, in runtime: RuntimeDirectory, policy: ConflictPolicy,
    cancellation: Cancellation
  ) throws -> Reservation<Device> {
    let name = device.lockName
    // Read now (the holder removes it as it stops), decode after the stop.
    let reading = Transmissions.readRecordLater(of: name, in: runtime)
    // The waiters first, or the next one would take the device the moment it is free.
    let waiters = Transmissions.stopWaiters(of: name, in: runtime)
    guard let pid = try Transmissions.stop(name, in: runtime, unless: cancellation) else {
      if cancellation.isCancelled { return .cancelledWhileWaiting(request: nil) }
      // It ended by itself just now; there is nothing left to cancel.
      return try reserve(device, in: runtime, policy: policy, cancellation: cancellation)
    }
    // If it had to be killed, it left its record: the device is restored from that here.
    let notes = try recoverLeftover(of: device, in: runtime).map { [$0] } ?? []
    guard case .record(let found) = reading.decoded(as: Device.self), found.pid == pid else {
      return .cancelledOther(pid: pid, record: nil, waiters: waiters, notes: notes)
    }
    return .cancelledOther(pid: pid, record: found, waiters: waiters, notes: notes)
  }

  /// The stop request that came from another process (`stop`, a rerun), if any.
  public var stopRequest: StopRequest? { stopListener?.request }

  /// Saves the device's state, records it (for `status`, and for the next run should this
  /// process be killed), and claims the device. `text` and `totalSymbols` are what `status`
  /// shows. Throws with the device unchanged and the record removed.
  ///
  /// `rounds`, for a repeated message, is how many times it is sent (0: until stopped).
  public func claim(text: String, totalSymbols: Int?, rounds: Int? = nil) throws
    -> ClaimedDevice<Device>
  {
    let saved = try device.saveState()
    var record = TransmissionRecord(
      pid: CurrentProcess.id, device: device.lockName, text: text, totalSymbols: totalSymbols,
      saved: saved)
    record.rounds = rounds
    record.round = rounds.map { _ in 1 }
    try deviceLock.write(record)
    let claim: (torch: Device.ClaimedTorch, saved: Device.SavedState)
    do {
      claim = try device.claim(saved: saved)
    } catch {
      deviceLock.removeRecord()
      throw error
    }
    do {
      if claim.saved != saved {
        record.saved = claim.saved
        try deviceLock.write(record)
      }
      let keeper = try RecordKeeper(deviceLock: deviceLock, record: record)
      return ClaimedDevice(
        torch: claim.torch, recordKeeper: keeper, deviceLock: deviceLock,
        stopListener: stopListener)
    } catch {
      try? claim.torch.restore()
      deviceLock.removeRecord()
      throw error
    }
  }

  /// If no one holds `device` but a record was left (its transmitter was killed), restores
  /// the device from the record. A corrupt record is removed. Says what it did, if anything.
  public static func recoverLeftover(of device: Device, in runtime: RuntimeDirectory) throws
    -> ControlNote?
  {
    guard case .acquired(let deviceLock) = try DeviceLock.tryAcquire(device.lockName, in: runtime)
    else { return nil }
    defer { deviceLock.release() }
    return try restoreLeftover(of: device, holding: deviceLock)
  }

  /// Restores the device from a record left by a transmitter that died without cleaning up.
  private static func restoreLeftover(of device: Device, holding deviceLock: DeviceLock) throws
    -> ControlNote?
  {
    // A stop socket with no owner alive (the lock is ours now) is junk from a kill.
    try? FileSystem.unlink(deviceLock.files.stopDoor)
    switch deviceLock.leftoverRecord().decoded(as: Device.self) {
    case .none:
      deviceLock.removeRecord()  // a half-written copy, if any
      return nil
    case .corrupt(let path, let reason):
      deviceLock.removeRecord()
      return .corruptRecordIgnored(path: path, reason: reason)
    case .record(let record):
      do {
        try device.restore(record.saved)
      } catch {
        throw LeftoverRestoreFailure(
          device: device.lockName, pid: record.pid, recordPath: deviceLock.files.record,
          error: error)
      }
      deviceLock.removeRecord()
      return .leftoverRestored(device: device.lockName, pid: record.pid)
    }
  }
}
