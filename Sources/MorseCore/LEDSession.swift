import Glibc

/// What to do when another process is already sending on the LED.
public enum ConflictPolicy: Sendable, Hashable {
  /// Cancel it and stop there: running `send` again is an off switch (the default).
  case toggle
  /// Cancel it, then send (`--replace`).
  case replace
  /// Wait for it, and for senders that came earlier, then send (`--wait`, `--queue`).
  case wait
}

/// How a session on an LED ended.
public enum SessionOutcome: Sendable, Hashable {
  /// This process sent (completely, or until cancelled).
  case transmitted(TransmissionOutcome)
  /// Another process's transmission was cancelled, and nothing was sent (`toggle`).
  case cancelledOther(pid: Int32, record: TransmissionRecord?)
  /// The wait for the LED was cancelled (a signal) before anything was sent.
  case cancelledWhileWaiting
}

/// One process's use of one LED, from reservation to release.
///
/// In order: reserve the LED (by the conflict policy); restore it from a record a killed
/// transmitter left; save its state and record it; claim it (trigger `none`); transmit; put
/// it back; remove the record; release. Every path out restores what was claimed.
public struct LEDSession {
  /// The LED.
  public let led: LED
  /// Where locks and records live.
  public let runtime: RuntimeDirectory
  /// How bright "on" is.
  public let brightness: BrightnessSetting
  /// What `status` shows as the text, and how many characters it has when known.
  public let description: (text: String, totalSymbols: Int?)
  /// Receives one-line notes for the user (a leftover restored, a corrupt record ignored).
  public let note: (String) -> Void

  /// A session on `led`.
  public init(
    led: LED, runtime: RuntimeDirectory, brightness: BrightnessSetting,
    description: (text: String, totalSymbols: Int?), note: @escaping (String) -> Void
  ) {
    self.led = led
    self.runtime = runtime
    self.brightness = brightness
    self.description = description
    self.note = note
  }

  /// Reserves the LED by `policy`, then runs `transmit` on the claimed torch, reporting
  /// progress to the record `status` reads. `cancellation` stops a wait for the LED.
  public func run(
    policy: ConflictPolicy, cancellation: Cancellation,
    transmit: (SysfsTorch, _ progress: @escaping (Transmitter.Progress) -> Void) throws ->
      TransmissionOutcome
  ) throws -> SessionOutcome {
    let reservation: LEDReservation
    switch policy {
    case .toggle:
      switch try LEDReservation.tryAcquire(led: led.name, in: runtime) {
      case .acquired(let acquired):
        reservation = acquired
      case .busy:
        // Read now (the holder removes it as it stops), decode after the signal has gone.
        let reading = LEDRuntime.readRecordLater(of: led.name, in: runtime)
        guard let pid = try LEDRuntime.stop(led.name, in: runtime) else {
          // It ended by itself just now; there is nothing left to cancel.
          return try run(policy: policy, cancellation: cancellation, transmit: transmit)
        }
        // If it had to be killed, it left its record: the LED is restored from that here.
        _ = try Self.recoverLeftover(of: led, in: runtime, note: note)
        if case .record(let found) = reading.decoded(), found.pid == pid {
          return .cancelledOther(pid: pid, record: found)
        }
        return .cancelledOther(pid: pid, record: nil)
      }
    case .replace:
      var acquired: LEDReservation?
      while acquired == nil {
        if cancellation.isCancelled { return .cancelledWhileWaiting }
        switch try LEDReservation.tryAcquire(led: led.name, in: runtime) {
        case .acquired(let reservation): acquired = reservation
        case .busy: _ = try LEDRuntime.stop(led.name, in: runtime)
        }
      }
      reservation = acquired!
    case .wait:
      guard
        let acquired = try LEDReservation.acquireInTurn(
          led: led.name, in: runtime, cancellation: cancellation)
      else { return .cancelledWhileWaiting }
      reservation = acquired
    }
    defer { reservation.release() }
    _ = try Self.restoreLeftover(of: led, reservation: reservation, note: note)

    let saved = try SavedLEDState(of: led)
    var record = TransmissionRecord(
      pid: getpid(), led: led.name, text: description.text,
      totalSymbols: description.totalSymbols, saved: saved)
    try reservation.write(record)
    let torch: SysfsTorch
    do {
      torch = try SysfsTorch(led: led, brightness: brightness, saved: saved)
    } catch {
      reservation.removeRecord()
      throw error
    }
    let keeper = RecordKeeper(reservation: reservation, record: record)
    // A long gap must not hide an LED that went away: notice it within 100 ms.
    let presence = PresenceWatch(led: led) { cancellation.cancel() }
    var result = Result {
      try transmit(torch) { progress in
        record.sentSymbols = progress.symbolsBegun
        record.line = progress.line
        keeper.update(record)
      }
    }
    if let vanished = presence.finish(), case .success(.cancelled) = result {
      result = .failure(vanished)
    }
    // The LED first: that is what a cancel waits for. The record goes last, once the LED is
    // back, so a kill in between still leaves what is needed to restore it.
    let restored = Result { try torch.restore() }
    keeper.stop()
    reservation.removeRecord()
    switch (result, restored) {
    case (.success(let outcome), .success):
      return .transmitted(outcome)
    case (.success, .failure(let restoreError)):
      throw restoreError
    case (.failure(let error), .success):
      throw error
    case (.failure(let error), .failure(let restoreError)):
      throw RestoreFailure(error: error, restoreError: restoreError)
    }
  }

  /// If no one holds `led` but a record was left (its transmitter was killed), restores the
  /// LED from the record; returns whether it did. A corrupt record is reported and removed.
  public static func recoverLeftover(
    of led: LED, in runtime: RuntimeDirectory, note: (String) -> Void
  ) throws -> Bool {
    guard
      case .acquired(let reservation) = try LEDReservation.tryAcquire(led: led.name, in: runtime)
    else { return false }
    defer { reservation.release() }
    return try restoreLeftover(of: led, reservation: reservation, note: note)
  }

  /// Restores the LED from a record left by a transmitter that died without cleaning up.
  private static func restoreLeftover(
    of led: LED, reservation: LEDReservation, note: (String) -> Void
  ) throws -> Bool {
    switch reservation.leftoverRecord() {
    case .none:
      reservation.removeRecord()  // a half-written copy, if any
      return false
    case .corrupt(let path, let reason):
      note("ignoring the state record \(path): \(reason)")
      reservation.removeRecord()
      return false
    case .record(let record):
      try record.saved.restore(to: led)
      reservation.removeRecord()
      note(
        "restored LED \(led.name), left claimed by morsetorch pid \(record.pid) "
          + "(killed before it could restore it)")
      return true
    }
  }
}

/// A transmission failed, and putting the LED back failed too.
public struct RestoreFailure: Error, CustomStringConvertible {
  /// What stopped the transmission; it decides the exit status.
  public let error: any Error
  /// What went wrong while restoring the LED.
  public let restoreError: any Error

  /// Both, the first one first; the second only if it says something new (an LED that
  /// vanished cannot be restored either).
  public var description: String {
    if case .vanished = error as? TorchError, case .vanished = restoreError as? TorchError {
      return "\(error)"
    }
    return "\(error)\nalso, restoring the LED failed: \(restoreError)"
  }
}

/// Notices an LED that disappears (unplugged, driver unloaded) while the transmission waits
/// between two writes, by looking for its `brightness` every `interval`.
final class PresenceWatch: @unchecked Sendable {
  private let stopped = Cancellation()
  private let lock = Lock()
  private var vanished: TorchError?

  init(led: LED, interval: Duration = .milliseconds(100), onVanish: @escaping @Sendable () -> Void)
  {
    let path = led.attributePath(LED.brightnessAttribute)
    startThread { [self] in
      let clock = SystemStepClock()
      while clock.wait(until: clock.now() + interval, unlessCancelled: stopped) {
        guard !Syscalls.isAccessible(path, F_OK) else { continue }
        lock.withLock { vanished = .vanished(path: path, errno: Errno(code: ENOENT)) }
        onVanish()
        return
      }
    }
  }

  /// Stops watching; the error if the LED vanished.
  func finish() -> TorchError? {
    stopped.cancel()
    return lock.withLock { vanished }
  }
}

/// Writes a transmission's record as it progresses, off the timing path.
///
/// `update` only stores the latest record and wakes a writer thread, which writes at most
/// once per `interval`: no file I/O ever delays a step.
final class RecordKeeper: @unchecked Sendable {
  private let reservation: LEDReservation
  private let lock = Lock()
  private let changed = ConditionVariable()
  private var latest: TransmissionRecord
  private var isDirty = false
  private var isStopped = false
  private let finished = Cancellation()
  private let pause = Cancellation()
  private let interval: Duration

  init(
    reservation: LEDReservation, record: TransmissionRecord,
    interval: Duration = .milliseconds(200)
  ) {
    self.reservation = reservation
    latest = record
    self.interval = interval
    startThread { [self] in writeLoop() }
  }

  func update(_ record: TransmissionRecord) {
    lock.withLock {
      latest = record
      isDirty = true
      changed.signal()
    }
  }

  /// Stops the writer and waits for it; the last record it wrote stays until removed.
  func stop() {
    lock.withLock {
      isStopped = true
      changed.signal()
    }
    pause.cancel()
    finished.waitUntilCancelled()
  }

  private func writeLoop() {
    let clock = SystemStepClock()
    while true {
      let record: TransmissionRecord? = lock.withLock {
        while !isDirty && !isStopped { changed.wait(lock) }
        if isStopped { return nil }
        isDirty = false
        return latest
      }
      guard let record else { break }
      try? reservation.write(record)
      _ = clock.wait(until: clock.now() + interval, unlessCancelled: pause)
      if lock.withLock({ isStopped }) { break }
    }
    finished.cancel()
  }
}
