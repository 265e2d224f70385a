import DeviceContract
import LinuxSystem

/// One process's use of one device or several together, from reservation to release.
///
/// In order: `reserve` the devices by the conflict policy (restoring any from a record a
/// killed transmitter left); `claim` them, which saves their state, records it and hands out
/// one torch that switches them all; transmit; `ClaimedDevices.finish`, which puts them back,
/// removes the records and releases them. Every path out restores what was claimed.
///
/// Several devices are all or nothing: a session holds every one of them or none. Their locks
/// are taken in one order (by lock name), whatever order they were asked for in, so that
/// processes that want overlapping sets never wait for each other in a circle.
public final class TransmitterSession {
  /// The devices, in lock order.
  public let devices: [any TorchDevice]
  /// Where locks and records live.
  public let runtime: RuntimeDirectory
  /// What was done on the way in: a leftover restored, a corrupt record ignored.
  public let notes: [ControlNote]
  let deviceLocks: [DeviceLock]
  private let stopListeners: [StopListener]
  /// Whether `claim` handed the stop listeners on (to `ClaimedDevices`).
  private var isClaimed = false

  private init(devices: [any TorchDevice], runtime: RuntimeDirectory, held: [Held]) throws {
    self.devices = devices
    self.runtime = runtime
    deviceLocks = held.map(\.lock)
    stopListeners = held.compactMap(\.stopListener)
    notes =
      try zip(devices, deviceLocks).compactMap { device, deviceLock in
        try Self.restoreLeftover(of: device, holding: deviceLock, removingUnusable: true)
      } + held.compactMap(\.unheard)
  }

  deinit {
    // Never claimed (a claim that failed, an error before it): no socket stays behind.
    if !isClaimed { stopListeners.forEach { $0.close() } }
  }

  /// A device's lock, and the socket that takes stop requests for it from the moment it is
  /// held: while a sender of several devices waits for the next one, a rerun or `stop` on one
  /// it holds asks it to let go (across users), as it would ask a transmission.
  private struct Held {
    let lock: DeviceLock
    let stopListener: StopListener?
    /// Why there is no stop listener, when there is none.
    let unheard: ControlNote?

    init(_ lock: DeviceLock, cancellation: Cancellation) {
      self.lock = lock
      // Without the socket, others fall back to signals, which reach only their own processes
      // (and root's reach all): said, not silent.
      do throws(Errno) {
        stopListener = try StopListener(
          path: lock.files.stopDoor, of: lock.files, cancelling: cancellation)
        unheard = nil
      } catch {
        stopListener = nil
        unheard = .noStopSocket(path: lock.files.stopDoor, errno: error)
      }
    }

    /// Lets go of what is held, the locks first (whoever asked finds them free once its
    /// connection closes); the wait ended by `request`, or by one that came to a held device.
    static func letGo(_ held: [Held], request: StopRequest?) -> Reservation {
      let request = request ?? held.lazy.compactMap { $0.stopListener?.request }.first
      held.forEach { $0.lock.release() }
      held.forEach { $0.stopListener?.close() }
      return .cancelledWhileWaiting(request: request)
    }
  }

  /// `devices` without repeats, in lock order: the order every process takes locks in.
  public static func inLockOrder(_ devices: [any TorchDevice]) -> [any TorchDevice] {
    var seen = Set<DeviceID>()
    return devices.sorted { $0.id < $1.id }.filter { seen.insert($0.id).inserted }
  }

  /// Reserves `device` alone; see `reserve(_:in:policy:cancellation:)` for several.
  public static func reserve(
    _ device: any TorchDevice, in runtime: RuntimeDirectory, policy: ConflictPolicy,
    cancellation: Cancellation
  ) throws -> Reservation {
    try reserve([device], in: runtime, policy: policy, cancellation: cancellation)
  }

  /// Reserves every one of `devices` (at least one) by `policy`: takes them if all are free;
  /// otherwise cancels the transmissions holding the busy ones, and every sender waiting for
  /// those, and stops there (`toggle`: a rerun is an off switch), cancels what holds each until
  /// it is free (`replace`), or waits in turn for each (`wait`). Nothing is held unless
  /// everything is. `cancellation` stops a wait, and is what a stop request to this session
  /// fires.
  /// `whenWaiting` is told of each device `wait` finds busy, before waiting for it.
  public static func reserve(
    _ devices: [any TorchDevice], in runtime: RuntimeDirectory, policy: ConflictPolicy,
    cancellation: Cancellation, whenWaiting: @escaping @Sendable (DeviceID) -> Void = { _ in }
  ) throws -> Reservation {
    let ordered = inLockOrder(devices)
    precondition(!ordered.isEmpty, "a session needs a device")
    let session = { (held: [Held]) throws -> Reservation in
      .reserved(try TransmitterSession(devices: ordered, runtime: runtime, held: held))
    }
    var held: [Held] = []
    // This user's own transmissions on these devices that began in another place (before
    // the shared directory was made): the policy applies to them as to any other.
    let elsewhere = heldElsewhere(ordered, besides: runtime)
    switch policy {
    case .toggle:
      var deviceLocks: [DeviceLock] = []
      var busy: [Busy] = []
      for device in ordered {
        switch try DeviceLock.tryAcquire(device.id, in: runtime) {
        case .acquired(let deviceLock): deviceLocks.append(deviceLock)
        case .busy: busy.append(Busy(device: device, runtime: runtime))
        }
      }
      if busy.isEmpty && elsewhere.isEmpty {
        return try session(deviceLocks.map { Held($0, cancellation: cancellation) })
      }
      deviceLocks.forEach { $0.release() }  // all or nothing
      return try cancelOthers(
        busy + elsewhere, of: ordered, in: runtime, cancellation: cancellation)
    case .replace:
      for busy in elsewhere {
        _ = try Transmissions.stop(busy.device.id, in: busy.runtime, unless: cancellation)
        if cancellation.isCancelled { return .cancelledWhileWaiting(request: nil) }
        _ = try recoverLeftover(of: busy.device, in: busy.runtime)
      }
      for device in ordered {
        while true {
          if cancellation.isCancelled { return Held.letGo(held, request: nil) }
          if case .acquired(let deviceLock) = try DeviceLock.tryAcquire(device.id, in: runtime) {
            held.append(Held(deviceLock, cancellation: cancellation))
            break
          }
          _ = try Transmissions.stop(device.id, in: runtime, unless: cancellation)
        }
      }
      return try session(held)
    case .wait:
      for busy in elsewhere {
        let id = busy.device.id
        switch try DeviceLock.acquireInTurn(
          id, in: busy.runtime, cancellation: cancellation, whenWaiting: { whenWaiting(id) })
        {
        case .acquired(let deviceLock): deviceLock.release()
        case .cancelled(let request): return .cancelledWhileWaiting(request: request)
        }
      }
      for device in ordered {
        let id = device.id
        switch try DeviceLock.acquireInTurn(
          id, in: runtime, cancellation: cancellation, whenWaiting: { whenWaiting(id) })
        {
        case .acquired(let deviceLock): held.append(Held(deviceLock, cancellation: cancellation))
        case .cancelled(let request): return Held.letGo(held, request: request)
        }
      }
      return try session(held)
    }
  }

  /// A device held in a runtime directory.
  private struct Busy {
    let device: any TorchDevice
    let runtime: RuntimeDirectory
  }

  /// The devices of `devices` that a process holds in one of `runtime`'s other places.
  private static func heldElsewhere(_ devices: [any TorchDevice], besides runtime: RuntimeDirectory)
    -> [Busy]
  {
    runtime.others.flatMap { other in
      devices.filter { (try? Transmissions.holder(of: $0.id, in: other)) != nil }
        .map { Busy(device: $0, runtime: other) }
    }
  }

  /// The toggle: for each busy device, stops the senders waiting for it, then the
  /// transmission holding it, and restores the device if its holder had to be killed.
  private static func cancelOthers(
    _ busy: [Busy], of all: [any TorchDevice], in primary: RuntimeDirectory,
    cancellation: Cancellation
  ) throws -> Reservation {
    var cancelled: [CancelledTransmission] = []
    var notes: [ControlNote] = []
    for each in busy {
      let (device, runtime) = (each.device, each.runtime)
      let name = device.id
      // Read now (the holder removes it as it stops), decode after the stop.
      let reading = Transmissions.readRecordLater(of: name, in: runtime)
      // The waiters first, or the next one would take the device the moment it is free.
      let waiters = try Transmissions.stopWaiters(of: name, in: runtime)
      let unit = try Transmissions.holder(of: name, in: runtime).flatMap(ProcessFacts.serviceUnit)
      guard let pid = try Transmissions.stop(name, in: runtime, unless: cancellation) else {
        if cancellation.isCancelled { return .cancelledWhileWaiting(request: nil) }
        continue  // it ended by itself just now, or with a transmission already stopped
      }
      // If it had to be killed, it left its record: the device is restored from that here.
      if let note = try recoverLeftover(of: device, in: runtime) { notes.append(note) }
      var record: TransmissionRecord?
      if case .record(let found) = reading.decoded(for: name), found.pid == pid {
        record = found
      }
      cancelled.append(
        CancelledTransmission(
          device: name, pid: pid, record: record, waiters: waiters, unit: unit))
    }
    // Every one ended by itself meanwhile: there is nothing left to cancel.
    if cancelled.isEmpty {
      return try reserve(all, in: primary, policy: .toggle, cancellation: cancellation)
    }
    return .cancelledOthers(cancelled, notes: notes)
  }

  /// The stop request that came from another process (`stop`, a rerun), if any.
  public var stopRequest: StopRequest? { stopListeners.lazy.compactMap(\.request).first }

  /// Saves each device's state, records it (for `status`, and for the next run should this
  /// process be killed), and claims the devices. `text` and `totalSymbols` are what `status`
  /// shows. Throws with every device unchanged and every record removed.
  ///
  /// `rounds`, for a repeated message, is how many times it is sent (0: until stopped).
  public func claim(text: String, totalSymbols: Int?, rounds: Int? = nil) throws
    -> ClaimedDevices
  {
    let startedAt = WallTime.secondsSince1970()
    let group = devices.count > 1 ? devices.map(\.id) : nil
    var claimed: [Claimed] = []
    do {
      for (device, deviceLock) in zip(devices, deviceLocks) {
        claimed.append(
          try claim(device, holding: deviceLock) { saved in
            var record = TransmissionRecord(
              pid: CurrentProcess.id, device: device.id, text: text,
              totalSymbols: totalSymbols, saved: saved, startedAt: startedAt)
            record.rounds = rounds
            record.round = rounds.map { _ in 1 }
            record.group = group
            return record
          })
      }
      let keepers = try claimed.map { try RecordKeeper(deviceLock: $0.lock, record: $0.record) }
      isClaimed = true
      return ClaimedDevices(
        torches: claimed.map(\.torch), recordKeepers: keepers, deviceLocks: deviceLocks,
        stopListeners: stopListeners)
    } catch {
      for each in claimed.reversed() {
        try? each.torch.restore()
        each.lock.removeRecord()
      }
      throw error
    }
  }

  /// One device claimed: its torch and record.
  private struct Claimed {
    let torch: any Torch
    let lock: DeviceLock
    let record: TransmissionRecord
  }

  /// Saves, records (`record` makes the record of the state saved) and claims one device.
  /// Throws with the device unchanged and its record removed.
  private func claim(
    _ device: any TorchDevice, holding deviceLock: DeviceLock,
    record makeRecord: (SavedFields) -> TransmissionRecord
  ) throws -> Claimed {
    var record = makeRecord(try device.saveState())
    try deviceLock.write(record)
    let claim: (torch: any Torch, saved: SavedFields)
    do {
      claim = try device.claim(saved: record.saved)
    } catch {
      deviceLock.removeRecord()
      throw error
    }
    do {
      if claim.saved != record.saved {
        record.saved = claim.saved
        try deviceLock.write(record)
      }
    } catch {
      try? claim.torch.restore()
      deviceLock.removeRecord()
      throw error
    }
    return Claimed(torch: claim.torch, lock: deviceLock, record: record)
  }

  /// If no one holds `device` but a record was left (its transmitter was killed), restores
  /// the device from the record. A record that cannot be used is said and kept: only the
  /// device's next sender, which writes its own, removes it. Says what it did, if anything.
  public static func recoverLeftover(of device: any TorchDevice, in runtime: RuntimeDirectory)
    throws
    -> ControlNote?
  {
    guard case .acquired(let deviceLock) = try DeviceLock.tryAcquire(device.id, in: runtime)
    else { return nil }
    defer { deviceLock.release() }
    // A stop socket with no owner alive (the lock is ours now) is junk from a kill. (A
    // session's own listener replaces it.)
    try? FileSystem.unlink(deviceLock.files.stopDoor)
    return try restoreLeftover(of: device, holding: deviceLock, removingUnusable: false)
  }

  /// The rights a record written by `writerID` is applied with: nil (this process's own) when
  /// this user wrote it or root did (no one here has more rights than root); else that
  /// user's, so that a record planted by another member of the group never writes what its
  /// writer could not. (Only root can act with them: anyone else is refused such a record
  /// before it gets here.)
  static func rights(of writerID: UInt32?) -> UserRights? {
    guard let writerID, writerID != 0, writerID != CurrentProcess.effectiveUserID else {
      return nil
    }
    return UserRights.of(userID: writerID)
  }

  /// Restores the device from a record left by a transmitter that died without cleaning up.
  /// With `removingUnusable` (a sender about to write its own record), a record that cannot be
  /// used, and any half-written copy, is removed; without, left as it is.
  private static func restoreLeftover(
    of device: any TorchDevice, holding deviceLock: DeviceLock, removingUnusable: Bool
  ) throws -> ControlNote? {
    let removeUnusable = { if removingUnusable { deviceLock.removeRecord() } }
    switch deviceLock.leftoverRecord().decoded(for: device.id) {
    case .none:
      removeUnusable()  // a half-written copy, if any
      return nil
    case .corrupt(let path, let reason):
      removeUnusable()
      return .corruptRecordIgnored(path: path, reason: reason)
    case .record(let record) where deviceLock.files.isStillHeldElsewhere(by: record):
      throw ControlError.lockFileMoved(
        device: deviceLock.files.name, pid: record.pid, path: deviceLock.files.lock)
    case .record(let record) where !device.isPlausible(record.saved):
      removeUnusable()
      return .corruptRecordIgnored(
        path: deviceLock.files.record, reason: "its saved state is not one of \(device.id)")
    case .record(let record):
      let euid = CurrentProcess.effectiveUserID
      if let writer = record.writerID, writer != 0, writer != euid,
        !UserRights.canActAsAnotherUser
      {
        throw ControlError.recordOfAnotherUser(
          device: deviceLock.files.name, pid: record.pid, writerID: writer)
      }
      let skipped: [SkippedSetting]
      do {
        skipped = try device.restore(record.saved, writer: rights(of: record.writerID))
      } catch {
        throw LeftoverRestoreFailure(
          device: device.id, pid: record.pid, recordPath: deviceLock.files.record,
          error: error, writerID: record.writerID)
      }
      deviceLock.removeRecord()
      return .leftoverRestored(
        device: device.id, pid: record.pid,
        companions: (record.group ?? []).filter { $0 != device.id }, skipped: skipped,
        writerID: record.writerID)
    }
  }
}
