import LinuxSystem
import MorsePlayer

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

  /// Waits for the device in ticket order (first come, first served); nil if cancelled first.
  ///
  /// Checks every `interval`: whether this ticket is the first live one, and if so whether
  /// the device is free. A ticket whose owner died is unlocked, and is removed by the next look.
  public static func acquireInTurn(
    _ name: String, in directory: RuntimeDirectory, cancellation: Cancellation,
    clock: any StepClock = SystemStepClock(), interval: Duration = .milliseconds(5)
  ) throws(ControlError) -> DeviceLock? {
    let files = RuntimeFiles(name: name, directory: directory)
    let ticket = try files.takeTicket()
    while true {
      if try files.isFirstInLine(ticket) {
        let file = try files.openLockFile()
        do throws(Errno) {
          if try file.lock(exclusive: true, wait: false) {
            _ = consume ticket
            return DeviceLock(name: name, directory: directory, lockFile: file)
          }
        } catch {
          throw .file(operation: "lock", path: files.lock, errno: error)
        }
      }
      guard clock.wait(until: clock.now() + interval, unlessCancelled: cancellation) else {
        return nil
      }
    }
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
