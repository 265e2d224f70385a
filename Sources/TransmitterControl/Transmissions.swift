import DeviceContract
import LinuxSystem

/// Reading and signalling the transmissions of other processes: `status`, `stop`, reruns.
///
/// Devices are named by `DeviceID`; their files by its lock name.
public enum Transmissions {
  /// The process holding `name`'s lock, if any.
  public static func holder(of device: DeviceID, in directory: RuntimeDirectory)
    throws(ControlError) -> Int32?
  {
    try RuntimeFiles(name: device.lockName, directory: directory).holder()
  }

  /// The record of `device`, read and checked.
  public static func record(of device: DeviceID, in directory: RuntimeDirectory)
    -> RecordContent
  {
    readRecordLater(of: device, in: directory).decoded(for: device)
  }

  /// The record of `device`, read now, to be checked later with `decoded(for:)`.
  public static func readRecordLater(of device: DeviceID, in directory: RuntimeDirectory)
    -> RecordReading
  {
    RuntimeFiles(name: device.lockName, directory: directory).readRecordLater()
  }

  /// The processes waiting for `name`, in the order they will get it.
  public static func waiters(of device: DeviceID, in directory: RuntimeDirectory)
    throws(ControlError) -> [Int32]
  {
    try RuntimeFiles(name: device.lockName, directory: directory).liveTickets().map(\.holder)
  }

  /// Every device with a lock file in `directory`, sorted; throws if the directory cannot be
  /// read (say, by a user outside its group).
  public static func devices(in directory: RuntimeDirectory) throws(ControlError) -> [DeviceID] {
    let names: [String]
    names = try Errno.mapping { () throws(Errno) in
      try FileSystem.directoryEntries(directory.path)
    } to: {
      ControlError.directory(path: directory.path, errno: $0)
    }
    return names.filter { $0.hasSuffix(".lock") && $0.count > 5 }
      .compactMap { RuntimeFiles.name(ofStem: String($0.dropLast(5))) }
      .compactMap(DeviceID.init(lockName:)).sorted()
  }

  /// Stops the process holding `name` and waits until it has exited, which is after it put the
  /// device back. Returns its pid, or nil if nothing held the device.
  ///
  /// First it asks through the holder's stop socket (`NAME.stop`), which works across users
  /// of the shared runtime directory; the holder closes the connection once the device is
  /// back. A holder that cannot answer (stopped with SIGSTOP, or one without a socket) gets
  /// SIGTERM and SIGCONT, through a pidfd checked against the lock table, where this user may
  /// signal it; if it has not exited after `patience`, SIGKILL, and the caller restores the
  /// device from the record it left.
  ///
  /// `giveUp` (the caller's own cancellation: Ctrl-C on a rerun) ends the wait, and never
  /// leads to SIGKILL: the holder was asked, and puts the device back by itself. Returns nil
  /// then, as when nothing was stopped.
  public static func stop(
    _ device: DeviceID, in directory: RuntimeDirectory, patience: Duration = .seconds(5),
    unless giveUp: Cancellation? = nil
  ) throws(ControlError) -> Int32? {
    try stopHolder(
      RuntimeFiles(name: device.lockName, directory: directory), patience: patience,
      giveUp: giveUp?.event)
  }

  /// Stops every process waiting for `name`, all at once; returns their pids.
  public static func stopWaiters(of device: DeviceID, in directory: RuntimeDirectory)
    throws(ControlError) -> [Int32]
  {
    let files = RuntimeFiles(name: device.lockName, directory: directory)
    // All at once: a waiter that never answers costs its patience once.
    return Threads.concurrentMap(try files.liveTickets().map(\.path)) { path in
      try? stopHolder(files, lockPath: path, patience: .seconds(2))
    }.compactMap { $0 }
  }

  private static func stopHolder(
    _ files: RuntimeFiles, lockPath: String? = nil, patience: Duration,
    giveUp: OneShotEvent? = nil
  ) throws(ControlError) -> Int32? {
    let path = lockPath ?? files.lock
    for _ in 0..<3 {
      guard let pid = try files.holder(lockPath: path) else { return nil }
      let handle: ProcessHandle
      do throws(Errno) {
        handle = try ProcessHandle(pid: pid)
      } catch {
        continue  // exited meanwhile: look again
      }
      // Pinned: if it still holds the lock now, the handle is the holder.
      guard try files.holder(lockPath: path) == pid else { continue }
      if ask(files.stopDoor(forLockPath: path), handle: handle, patience: patience, giveUp: giveUp)
      {
        return pid
      }
      if giveUp?.isFired == true { return nil }
      // It may have let go while it was asked (and closed its socket): signal only a holder.
      guard try files.holder(lockPath: path) == pid else { return pid }
      return try signal(handle, holding: path, of: files, patience: patience, giveUp: giveUp)
    }
    return nil
  }

  /// Asks through the stop socket at `door`; whether the holder answered that it stopped.
  private static func ask(
    _ door: String, handle: borrowing ProcessHandle, patience: Duration, giveUp: OneShotEvent?
  ) -> Bool {
    guard let status = try? FileSystem.linkStatus(door), status.isSocket,
      let socket = try? UnixSocket.connect(to: door),
      // Only the lock holder itself may answer for it.
      (try? socket.peer().processID) == handle.pid,
      (try? socket.send(Array("stop\n".utf8))) != nil
    else { return false }
    // A stopped process runs no code: waiting for its answer would only waste the patience.
    if handle.isStopped { return false }
    return socket.waitForClose(timeout: patience, unless: giveUp)
  }

  /// SIGTERM (with SIGCONT, for a stopped process), then SIGKILL after `patience`.
  private static func signal(
    _ handle: borrowing ProcessHandle, holding path: String, of files: RuntimeFiles,
    patience: Duration, giveUp: OneShotEvent?
  ) throws(ControlError) -> Int32? {
    let pid = handle.pid
    do throws(Errno) {
      try handle.terminate()
      try? handle.resume()
    } catch {
      if error == .noSuchProcess { return try files.holder(lockPath: path) == nil ? pid : nil }
      if error == .notPermitted {
        let state = handle.isStopped ? "it is stopped (SIGSTOP)" : "it does not answer"
        throw .holderDidNotStop(
          pid: pid, device: files.name,
          reason: "\(state), and it belongs to another user, who can resume or end it")
      }
      throw .file(operation: "signal pid \(pid) holding", path: path, errno: error)
    }
    if handle.waitForExit(timeout: patience, unless: giveUp) { return pid }
    // Given up (a signal to the one asking): the holder was asked and restores by itself;
    // killing it would leave that to someone who is leaving.
    if giveUp?.isFired == true { return nil }
    if try files.holder(lockPath: path) == pid {
      try? handle.kill()
      if handle.waitForExit(timeout: .seconds(2)) { return pid }
    }
    throw .holderDidNotStop(
      pid: pid, device: files.name, reason: "it survived SIGTERM and SIGKILL")
  }
}
