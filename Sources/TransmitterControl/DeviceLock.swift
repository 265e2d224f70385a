import DeviceContract
import Instants
import LinuxSystem
import Synchronization

/// The right to drive one device, held by one process at a time, across processes.
///
/// The right is a POSIX write lock (`fcntl(F_SETLK)`) on `<runtime>/<name>.lock`: the kernel
/// drops it when the process ends in any way, SIGKILL included, so a lock is never stale, and
/// `F_GETLK` names the holder, so a process is signalled only while the kernel says it holds
/// the device. Senders that wait (`--wait`) take numbered tickets (`<name>.wait.<n>`, each
/// locked by its owner) and take the device in ticket order.
public final class DeviceLock: Sendable {
  /// The device.
  public let device: DeviceID
  /// Where the lock and record live.
  public let directory: RuntimeDirectory
  /// The lock file while the lock is held; nil once released.
  private struct Held: ~Copyable {
    var file: FileDescriptor?
  }
  private let held: Mutex<Held>

  /// The outcome of trying to take a device.
  public enum Attempt {
    /// The device is ours.
    case acquired(DeviceLock)
    /// Another process has it.
    case busy(holder: Int32)
  }

  private init(device: DeviceID, directory: RuntimeDirectory, lockFile: consuming FileDescriptor) {
    self.device = device
    self.directory = directory
    held = Mutex(Held(file: consume lockFile))
  }

  deinit {
    release()
  }

  /// The device's lock name.
  public var name: String { device.lockName }

  var files: RuntimeFiles { RuntimeFiles(name: name, directory: directory) }

  /// Takes the device if no one has it, without waiting.
  public static func tryAcquire(_ device: DeviceID, in directory: RuntimeDirectory)
    throws(ControlError) -> Attempt
  {
    let files = RuntimeFiles(name: device.lockName, directory: directory)
    try files.checkNameLength()
    while true {
      let file = try files.openLockFile()
      let isLocked: Bool
      isLocked = try Errno.mapping { () throws(Errno) in
        try file.lock(exclusive: true, wait: false)
      } to: {
        ControlError.file(operation: "lock", path: files.lock, errno: $0)
      }
      if isLocked {
        // Removed or replaced meanwhile: that lock guards nothing, take the new one.
        guard RuntimeFiles.isStill(file, at: files.lock) else { continue }
        return .acquired(
          DeviceLock(device: device, directory: directory, lockFile: files.replacedIfShared(file)))
      }
      // Released between the two calls: try again.
      if let holder = try RuntimeFiles.holder(of: file, path: files.lock) {
        return .busy(holder: holder)
      }
    }
  }

  /// How a wait for a device ended.
  public enum Turn {
    /// The device is ours.
    case acquired(DeviceLock)
    /// The wait was cancelled: by a signal, or by `request` from another process.
    case cancelled(request: StopRequest?)
  }

  /// Waits for the device in ticket order (first come, first served) until it is ours or
  /// `cancellation` fires.
  ///
  /// The waiting blocks in the kernel (but for taking the tickets lock, tried every 20 ms so
  /// that a cancel ends it): each waiter holds a lock on its own
  /// ticket (`NAME.wait.<n>`) and waits (`F_SETLKW`) for the ticket before it to be let go;
  /// the first in line waits for the device's lock itself. It runs on a thread of its own, so
  /// that a cancel ends the wait at once. While waiting, `NAME.wait.<n>.stop` takes stop
  /// requests, as the holder's does.
  /// `whenWaiting` is called once, from the waiting thread, if the device is not free at once
  /// (someone holds it, or is in line before): for a word to the user.
  public static func acquireInTurn(
    _ device: DeviceID, in directory: RuntimeDirectory, cancellation: Cancellation,
    whenWaiting: @escaping @Sendable () -> Void = {}
  ) throws(ControlError) -> Turn {
    let files = RuntimeFiles(name: device.lockName, directory: directory)
    try files.checkNameLength()
    guard let ticket = try files.takeTicket(cancellation: cancellation) else {
      return .cancelled(request: nil)
    }
    let stopListener = try? StopListener(
      path: files.stopDoor(forLockPath: ticket.path), of: files, cancelling: cancellation)
    defer { stopListener?.close() }
    let waiter = Waiter()
    cancellation.onCancel { waiter.finished.fire() }
    let number = ticket.number
    do throws(Errno) {
      try Threads.start {
        waiter.keep(
          Result { () throws(ControlError) in
            try waitForTurn(number, device: device, files: files, whenWaiting: whenWaiting)
          })
      }
    } catch {
      throw .file(operation: "start a thread to wait for", path: files.lock, errno: error)
    }
    // The waiting thread sleeps in the kernel's lock wait, and is handed the device the
    // moment it is free; this one looks now and then at who holds the lock, which can be no
    // transmission at all (`watchForeignLock`).
    var foreignSince: MonotonicInstant?
    while waiter.finished.wait(untilMonotonic: MonotonicTime.now() + foreignLockCheck) {
      do throws(ControlError) {
        try watchForeignLock(files, since: &foreignSince)
      } catch {
        waiter.abandon()
        throw error
      }
    }
    _ = consume ticket  // the next in line may go on now
    guard !cancellation.isCancelled, let outcome = waiter.abandon() else {
      return .cancelled(request: stopListener?.request)
    }
    return .acquired(try outcome.get())
  }

  /// How often a waiter looks at who holds the device's lock.
  static let foreignLockCheck = Duration.milliseconds(500)
  /// How long a waiter waits behind a lock that no process holds (an open file description
  /// lock, which morsetorch never takes, or a process in another PID namespace) before it
  /// gives up: such a lock is no transmission, and no turn comes after it by itself.
  public static let foreignLockPatience = Duration.seconds(2)

  /// Throws `lockNotHeldByProcess` once the device's lock has been held by no process for
  /// `foreignLockPatience`; `since` is when that was first seen, nil while a process holds it.
  ///
  /// Asked of the kernel's lock table, not with `F_GETLK`: the waiting thread may take the
  /// lock at any moment, and a descriptor of the file opened and closed here before it has
  /// noted so (`HeldRecordLocks`) would end its lock.
  private static func watchForeignLock(_ files: RuntimeFiles, since: inout MonotonicInstant?)
    throws(ControlError)
  {
    let holders =
      (try? FileSystem.linkStatus(files.lock)).map {
        RecordLockTable.holders(of: $0.identity)
      } ?? []
    guard let foreign = holders.first, holders.allSatisfy({ $0 <= 0 }) else {
      since = nil
      return
    }
    let now = MonotonicTime.now()
    let first = since ?? now
    since = first
    if now - first >= foreignLockPatience {
      throw .lockNotHeldByProcess(path: files.lock, pid: foreign)
    }
  }

  /// What the waiting thread found, and whether anyone still wants it: a lock taken after the
  /// wait was given up (cancelled, or behind a foreign lock) is let go at once.
  private final class Waiter: Sendable {
    let finished = OneShotEvent()
    private let state = Mutex<(result: Result<DeviceLock, ControlError>?, isAbandoned: Bool)>(
      (nil, false))

    /// Keeps what the wait found, then says it is finished; releases a lock no one wants.
    func keep(_ result: Result<DeviceLock, ControlError>) {
      let isKept = state.withLock { state in
        if !state.isAbandoned { state.result = result }
        return !state.isAbandoned
      }
      if !isKept, case .success(let lock) = result { lock.release() }
      finished.fire()
    }

    /// Gives up the wait: returns what it found by now, if anything.
    @discardableResult
    func abandon() -> Result<DeviceLock, ControlError>? {
      state.withLock { state in
        state.isAbandoned = true
        return state.result
      }
    }
  }

  /// Blocks until ticket `number` is first in line and the device is free; takes it.
  private static func waitForTurn(
    _ number: Int, device: DeviceID, files: RuntimeFiles, whenWaiting: () -> Void
  ) throws(ControlError) -> DeviceLock {
    var isWaiting = false
    func waits() {
      if !isWaiting { whenWaiting() }
      isWaiting = true
    }
    while let previous = try files.ticket(before: number) {
      waits()
      try files.waitForRelease(of: previous)
    }
    while true {
      let file = try files.openLockFile()
      for wait in [false, true] {
        let isLocked = try Errno.mapping { () throws(Errno) in
          try file.lock(exclusive: true, wait: wait)
        } to: {
          ControlError.file(operation: "lock", path: files.lock, errno: $0)
        }
        if isLocked { break }
        waits()
      }
      // Removed or replaced while this waited (root adopting it): wait on the new one.
      guard RuntimeFiles.isStill(file, at: files.lock) else { continue }
      return DeviceLock(
        device: device, directory: files.directory, lockFile: files.replacedIfShared(file))
    }
  }

  /// The record left by an earlier holder, unread: one exists only if that process died
  /// without cleaning up (SIGKILL, a power cut), since a transmitter removes its record before
  /// it releases the device.
  func leftoverRecord() -> RecordReading {
    files.readRecordLater()
  }

  /// Writes (atomically replaces) this transmission's record.
  func write(_ record: TransmissionRecord) throws(ControlError) {
    try files.writeRecord(record)
  }

  /// Removes the record (done before releasing the device), and any half-written copy a
  /// killed holder left between writing it and renaming it into place.
  func removeRecord() {
    files.removeRecord()
  }

  /// Releases the device for the next process.
  public func release() {
    held.withLock { held in
      if let file = held.file.take() { try? file.close() }
    }
  }
}
