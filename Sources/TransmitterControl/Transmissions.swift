import LinuxSystem
import MorsePlayer

/// Reading and signalling the transmissions of other processes: `status`, `stop`, reruns.
///
/// Devices are named by their lock names (`TorchDevice.lockName`).
public enum Transmissions {
  /// The process holding `name`'s lock, if any.
  public static func holder(of name: String, in directory: RuntimeDirectory) -> Int32? {
    RuntimeFiles(name: name, directory: directory).holder()
  }

  /// The record of `name`, checked as one of a `Device`.
  public static func record<Device: TorchDevice>(
    of name: String, as device: Device.Type, in directory: RuntimeDirectory
  ) -> RecordContent<Device.SavedState> {
    readRecordLater(of: name, in: directory).decoded(as: device)
  }

  /// The record of `name`, read now, to be decoded later with `decoded(as:)`.
  public static func readRecordLater(of name: String, in directory: RuntimeDirectory)
    -> RecordReading
  {
    RuntimeFiles(name: name, directory: directory).readRecordLater()
  }

  /// The processes waiting for `name`, in the order they will get it.
  public static func waiters(of name: String, in directory: RuntimeDirectory) -> [Int32] {
    RuntimeFiles(name: name, directory: directory).liveTickets().map(\.holder)
  }

  /// Every device with a lock file in `directory`, sorted.
  public static func names(in directory: RuntimeDirectory) -> [String] {
    let names = (try? FileSystem.directoryEntries(directory.path)) ?? []
    return names.filter { $0.hasSuffix(".lock") && $0.count > 5 }.map { String($0.dropLast(5)) }
      .sorted()
  }

  /// Asks the process holding `name` to stop (SIGTERM), and waits until it has exited, which
  /// is after it put the device back. Returns its pid, or nil if nothing held the device.
  ///
  /// The pid comes from the kernel's lock table, is pinned with a pidfd, and is checked
  /// again against the lock table before the signal goes: only the holder is ever signalled.
  /// If it has not exited after `patience`, it is killed (SIGKILL) while still holding the
  /// lock, and the caller restores the device from the record it left.
  public static func stop(
    _ name: String, in directory: RuntimeDirectory, patience: Duration = .seconds(5)
  ) throws(ControlError) -> Int32? {
    try signalHolder(RuntimeFiles(name: name, directory: directory), patience: patience)
  }

  /// Asks every process waiting for `name` to give up (SIGTERM); returns their pids.
  public static func stopWaiters(of name: String, in directory: RuntimeDirectory) -> [Int32] {
    let files = RuntimeFiles(name: name, directory: directory)
    return files.liveTickets().compactMap { ticket in
      try? signalHolder(files, lockPath: ticket.path, patience: .seconds(2))
    }
  }

  private static func signalHolder(
    _ files: RuntimeFiles, lockPath: String? = nil, patience: Duration
  ) throws(ControlError) -> Int32? {
    let path = lockPath ?? files.lock
    for _ in 0..<3 {
      guard let pid = files.holder(lockPath: path) else { return nil }
      let handle: ProcessHandle
      do throws(Errno) {
        handle = try ProcessHandle(pid: pid)
      } catch {
        continue  // exited meanwhile: look again
      }
      // Pinned: if it still holds the lock now, the handle is the holder.
      guard files.holder(lockPath: path) == pid else { continue }
      do throws(Errno) {
        try handle.terminate()
      } catch {
        if error == .noSuchProcess { continue }
        throw .file(operation: "signal pid \(pid) holding", path: path, errno: error)
      }
      if handle.waitForExit(timeout: patience) { return pid }
      if files.holder(lockPath: path) == pid {
        try? handle.kill()
        if handle.waitForExit(timeout: .seconds(2)) { return pid }
      }
      throw .holderDidNotStop(pid: pid, device: files.name)
    }
    return nil
  }
}
