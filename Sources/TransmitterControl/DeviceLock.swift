import LinuxSystem
import MorsePlayer
import Synchronization

/// The right to drive one device, held by one process at a time, across processes.
///
/// The right is a POSIX write lock (`fcntl(F_SETLK)`) on `<runtime>/<name>.lock`: the kernel
/// drops it when the process ends in any way, SIGKILL included, so a lock is never stale, and
/// `F_GETLK` names the holder, so a process is signalled only while the kernel says it holds
/// the device. Senders that wait (`--wait`) take numbered tickets (`<name>.wait.<n>`, each
/// locked by its owner) and take the device in ticket order.
public final class DeviceLock: @unchecked Sendable {
  /// The device's lock name.
  public let name: String
  /// Where the lock and record live.
  public let directory: RuntimeDirectory
  private let lock = Lock()
  private var lockFile: FileDescriptor?

  /// The outcome of trying to take a device.
  public enum Attempt {
    /// The device is ours.
    case acquired(DeviceLock)
    /// Another process has it.
    case busy(holder: Int32)
  }

  private init(name: String, directory: RuntimeDirectory, lockFile: consuming FileDescriptor) {
    self.name = name
    self.directory = directory
    self.lockFile = .some(lockFile)
  }

  deinit {
    release()
  }

  var files: RuntimeFiles { RuntimeFiles(name: name, directory: directory) }

  /// Takes the device if no one has it, without waiting.
  public static func tryAcquire(_ name: String, in directory: RuntimeDirectory)
    throws(ControlError) -> Attempt
  {
    let files = RuntimeFiles(name: name, directory: directory)
    while true {
      let file = try files.openLockFile()
      do throws(Errno) {
        if try file.lock(exclusive: true, wait: false) {
          return .acquired(DeviceLock(name: name, directory: directory, lockFile: file))
        }
        // Released between the two calls: try again.
        if let holder = try file.lockHolder() { return .busy(holder: holder) }
      } catch {
        throw .file(operation: "lock", path: files.lock, errno: error)
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
  /// The waiting blocks in the kernel, with no polling: each waiter holds a lock on its own
  /// ticket (`NAME.wait.<n>`) and waits (`F_SETLKW`) for the ticket before it to be let go;
  /// the first in line waits for the device's lock itself. It runs on a thread of its own, so
  /// that a cancel ends the wait at once. While waiting, `NAME.wait.<n>.stop` takes stop
  /// requests, as the holder's does.
  public static func acquireInTurn(
    _ name: String, in directory: RuntimeDirectory, cancellation: Cancellation
  ) throws(ControlError) -> Turn {
    let files = RuntimeFiles(name: name, directory: directory)
    guard let ticket = try files.takeTicket(cancellation: cancellation) else {
      return .cancelled(request: nil)
    }
    let stopListener = try? StopListener(
      path: files.stopDoor(forLockPath: ticket.path), cancelling: cancellation)
    defer { stopListener?.close() }
    let waiter = Waiter()
    cancellation.onCancel { waiter.finished.fire() }
    let number = ticket.number
    do throws(Errno) {
      try Threads.start {
        waiter.result.withLock {
          $0 = Result { () throws(ControlError) in try waitForTurn(number, files: files) }
        }
        waiter.finished.fire()
      }
    } catch {
      throw .file(operation: "start a thread to wait for", path: files.lock, errno: error)
    }
    waiter.finished.wait()
    _ = consume ticket  // the next in line may go on now
    if cancellation.isCancelled { return .cancelled(request: stopListener?.request) }
    guard let outcome = waiter.result.withLock({ $0 }) else {
      return .cancelled(request: stopListener?.request)
    }
    return .acquired(try outcome.get())
  }

  /// What the waiting thread found.
  private final class Waiter: Sendable {
    let finished = OneShotEvent()
    let result = Mutex<Result<DeviceLock, ControlError>?>(nil)
  }

  /// Blocks until ticket `number` is first in line and the device is free; takes it.
  private static func waitForTurn(_ number: Int, files: RuntimeFiles) throws(ControlError)
    -> DeviceLock
  {
    while let previous = try files.ticket(before: number) {
      try files.waitForRelease(of: previous)
    }
    let file = try files.openLockFile()
    do throws(Errno) {
      _ = try file.lock(exclusive: true, wait: true)
    } catch {
      throw .file(operation: "lock", path: files.lock, errno: error)
    }
    return DeviceLock(name: files.name, directory: files.directory, lockFile: file)
  }

  /// The record left by an earlier holder, unread: one exists only if that process died
  /// without cleaning up (SIGKILL, a power cut), since a transmitter removes its record before
  /// it releases the device.
  func leftoverRecord() -> RecordReading {
    files.readRecordLater()
  }

  /// Writes (atomically replaces) this transmission's record.
  func write<SavedState>(_ record: TransmissionRecord<SavedState>) throws(ControlError) {
    try files.writeRecord(record)
  }

  /// Removes the record (done before releasing the device), and any half-written copy a
  /// killed holder left between writing it and renaming it into place.
  func removeRecord() {
    files.removeRecord()
  }

  /// Releases the device for the next process.
  public func release() {
    lock.withLock {
      if let file = lockFile.take() { try? file.close() }
    }
  }
}
