import Glibc

/// What is in an LED's state record.
public enum RecordContent: Sendable, Hashable {
  /// There is no record.
  case none
  /// A valid record.
  case record(TransmissionRecord)
  /// A record that cannot be trusted: reported and then ignored.
  case corrupt(path: String, reason: String)
}

/// A record read from disk but not yet decoded.
public enum RecordReading: Sendable {
  /// Nothing to decode: the content is known.
  case done(RecordContent)
  /// The raw bytes of the record at `path`, for `led`.
  case bytes([UInt8], path: String, led: String)

  /// Decodes and checks the record.
  public func decoded() -> RecordContent {
    switch self {
    case .done(let content):
      return content
    case .bytes(let bytes, let path, let led):
      switch TransmissionRecord.decode(bytes, for: led) {
      case .success(let record): return .record(record)
      case .failure(let problem): return .corrupt(path: path, reason: problem.reason)
      }
    }
  }
}

/// The right to drive one LED, held by one process at a time, across processes.
///
/// The right is a POSIX write lock (`fcntl(F_SETLK)`) on `<runtime>/<led>.lock`: the kernel
/// drops it when the process ends in any way, SIGKILL included, so a lock is never stale, and
/// `F_GETLK` names the holder, so a process is signalled only while the kernel says it holds
/// the LED. Senders that wait (`--wait`) take numbered tickets (`<led>.wait.<n>`, each locked
/// by its owner) and take the LED in ticket order.
public final class LEDReservation: @unchecked Sendable {
  /// The LED reserved.
  public let led: String
  /// Where the lock and record live.
  public let directory: RuntimeDirectory
  private let lockDescriptor: Int32
  private let lock = Lock()
  private var isReleased = false

  /// The outcome of trying to reserve an LED.
  public enum Attempt {
    /// The LED is ours.
    case acquired(LEDReservation)
    /// Another process has it.
    case busy(holder: Int32)
  }

  private init(led: String, directory: RuntimeDirectory, lockDescriptor: Int32) {
    self.led = led
    self.directory = directory
    self.lockDescriptor = lockDescriptor
  }

  deinit {
    release()
  }

  /// Takes the LED if no one has it, without waiting.
  public static func tryAcquire(led: String, in directory: RuntimeDirectory)
    throws(ReservationError) -> Attempt
  {
    let paths = LEDRuntimeFiles(led: led, directory: directory)
    let descriptor = try paths.openLockFile()
    let holder: Int32?
    do throws(Errno) {
      if try Syscalls.lock(descriptor, exclusive: true, wait: false) {
        return .acquired(LEDReservation(led: led, directory: directory, lockDescriptor: descriptor))
      }
      holder = try Syscalls.lockHolder(descriptor)
      try? Syscalls.close(descriptor)
    } catch {
      try? Syscalls.close(descriptor)
      throw .file(operation: "lock", path: paths.lock, errno: error)
    }
    // Released between the two calls: try again.
    guard let holder else { return try tryAcquire(led: led, in: directory) }
    return .busy(holder: holder)
  }

  /// Waits for the LED in ticket order (first come, first served); nil if cancelled first.
  ///
  /// Checks every `interval`: whether this ticket is the first live one, and if so whether
  /// the LED is free. A ticket whose owner died is unlocked, and is removed by the next look.
  public static func acquireInTurn(
    led: String, in directory: RuntimeDirectory, cancellation: Cancellation,
    clock: any StepClock = SystemStepClock(), interval: Duration = .milliseconds(5)
  ) throws(ReservationError) -> LEDReservation? {
    let paths = LEDRuntimeFiles(led: led, directory: directory)
    let ticket = try paths.takeTicket()
    defer { paths.returnTicket(ticket) }
    let descriptor = try paths.openLockFile()
    while true {
      if try paths.isFirstInLine(ticket) {
        do throws(Errno) {
          if try Syscalls.lock(descriptor, exclusive: true, wait: false) {
            return LEDReservation(led: led, directory: directory, lockDescriptor: descriptor)
          }
        } catch {
          try? Syscalls.close(descriptor)
          throw .file(operation: "lock", path: paths.lock, errno: error)
        }
      }
      guard clock.wait(until: clock.now() + interval, unlessCancelled: cancellation) else {
        try? Syscalls.close(descriptor)
        return nil
      }
    }
  }

  /// The record left by an earlier holder: one exists only if that process died without
  /// cleaning up (SIGKILL, a power cut), since a transmitter removes its record before it
  /// releases the LED.
  public func leftoverRecord() -> RecordContent {
    LEDRuntimeFiles(led: led, directory: directory).readRecord()
  }

  /// Writes (atomically replaces) this transmission's record.
  public func write(_ record: TransmissionRecord) throws(ReservationError) {
    try LEDRuntimeFiles(led: led, directory: directory).writeRecord(record)
  }

  /// Removes the record (done before releasing the LED), and any half-written copy a killed
  /// holder left between writing it and renaming it into place.
  public func removeRecord() {
    let files = LEDRuntimeFiles(led: led, directory: directory)
    try? Syscalls.unlink(files.record)
    files.removeTemporaryRecords()
  }

  /// Releases the LED for the next process.
  public func release() {
    lock.withLock {
      guard !isReleased else { return }
      isReleased = true
      try? Syscalls.close(lockDescriptor)
    }
  }
}

/// Reading and signalling the transmissions of other processes: `status`, `stop`, reruns.
public enum LEDRuntime {
  /// The process holding `led`'s lock, if any.
  public static func holder(of led: String, in directory: RuntimeDirectory) -> Int32? {
    LEDRuntimeFiles(led: led, directory: directory).holder()
  }

  /// The record of `led`, checked.
  public static func record(of led: String, in directory: RuntimeDirectory) -> RecordContent {
    LEDRuntimeFiles(led: led, directory: directory).readRecord()
  }

  /// The record of `led`, read now, to be decoded later with `decoded()`.
  public static func readRecordLater(of led: String, in directory: RuntimeDirectory)
    -> RecordReading
  {
    LEDRuntimeFiles(led: led, directory: directory).readRecordLater()
  }

  /// The processes waiting for `led`, in the order they will get it.
  public static func waiters(of led: String, in directory: RuntimeDirectory) -> [Int32] {
    LEDRuntimeFiles(led: led, directory: directory).liveTickets().map(\.holder)
  }

  /// Every LED with a lock file in `directory`, sorted.
  public static func leds(in directory: RuntimeDirectory) -> [String] {
    let names = (try? Syscalls.directoryEntries(directory.path)) ?? []
    return names.filter { $0.hasSuffix(".lock") && $0.count > 5 }.map { String($0.dropLast(5)) }
      .sorted()
  }

  /// Asks the process holding `led` to stop (SIGTERM), and waits until it has exited, which
  /// is after it put the LED back. Returns its pid, or nil if nothing held the LED.
  ///
  /// The pid comes from the kernel's lock table, is pinned with a pidfd, and is checked
  /// again against the lock table before the signal goes: only the holder is ever signalled.
  /// If it has not exited after `patience`, it is killed (SIGKILL) while still holding the
  /// lock, and the caller restores the LED from the record it left.
  public static func stop(
    _ led: String, in directory: RuntimeDirectory, patience: Duration = .seconds(5)
  ) throws(ReservationError) -> Int32? {
    try signalHolder(LEDRuntimeFiles(led: led, directory: directory), patience: patience)
  }

  /// Asks every process waiting for `led` to give up (SIGTERM); returns their pids.
  public static func stopWaiters(of led: String, in directory: RuntimeDirectory) -> [Int32] {
    let files = LEDRuntimeFiles(led: led, directory: directory)
    return files.liveTickets().compactMap { ticket in
      try? signalHolder(
        LEDRuntimeFiles(led: led, directory: directory), lockPath: ticket.path,
        patience: .seconds(2))
    }
  }

  private static func signalHolder(
    _ files: LEDRuntimeFiles, lockPath: String? = nil, patience: Duration
  ) throws(ReservationError) -> Int32? {
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
        try handle.send(SIGTERM)
      } catch {
        if error.code == ESRCH { continue }
        throw .file(operation: "signal pid \(pid) holding", path: path, errno: error)
      }
      if handle.waitForExit(timeout: patience) { return pid }
      if files.holder(lockPath: path) == pid {
        try? handle.send(SIGKILL)
        if handle.waitForExit(timeout: .seconds(2)) { return pid }
      }
      throw .holderDidNotStop(pid: pid, led: files.led)
    }
    return nil
  }
}

/// The files of one LED in the runtime directory, and the careful ways to open them.
struct LEDRuntimeFiles {
  let led: String
  let directory: RuntimeDirectory

  var lock: String { directory.file(led + ".lock") }
  var record: String { directory.file(led + ".state") }
  private var tickets: String { directory.file(led + ".tickets") }
  private var ticketPrefix: String { led + ".wait." }

  /// A waiting sender's ticket.
  struct Ticket {
    let number: Int
    let path: String
    let descriptor: Int32
  }

  /// Opens (creating if needed) a lock-type file: never through a symlink, and only if it is
  /// a regular file with a single link.
  func openLockFile(_ path: String? = nil, create: Bool = true) throws(ReservationError) -> Int32 {
    let path = path ?? lock
    let flags = O_RDWR | O_NOFOLLOW | (create ? O_CREAT : 0)
    let descriptor: Int32
    do throws(Errno) {
      descriptor = try Syscalls.open(path, flags, mode: 0o664)
    } catch {
      throw .file(operation: "open", path: path, errno: error)
    }
    try checkRegular(descriptor, path: path)
    return descriptor
  }

  private func checkRegular(_ descriptor: Int32, path: String) throws(ReservationError) {
    let status: stat
    do throws(Errno) {
      status = try Syscalls.status(of: descriptor)
    } catch {
      try? Syscalls.close(descriptor)
      throw .file(operation: "examine", path: path, errno: error)
    }
    guard status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1 else {
      try? Syscalls.close(descriptor)
      throw .unsafeFile(path: path, reason: "it is not a plain file with a single link")
    }
    // In a directory shared with the LED group, the group must be able to lock it too;
    // the umask usually takes that write bit away at creation.
    if status.st_uid == Syscalls.effectiveUserID && status.st_mode & S_IWGRP == 0 {
      try? Syscalls.changeMode(descriptor, 0o664)
    }
  }

  /// The process holding the lock on `lockPath` (the LED's lock by default).
  func holder(lockPath: String? = nil) -> Int32? {
    let path = lockPath ?? lock
    guard let descriptor = try? Syscalls.open(path, O_RDONLY | O_NOFOLLOW) else { return nil }
    defer { try? Syscalls.close(descriptor) }
    return (try? Syscalls.lockHolder(descriptor)) ?? nil
  }

  /// Reads and checks the record.
  func readRecord() -> RecordContent {
    readRecordLater().decoded()
  }

  /// Reads the record's bytes now and leaves decoding for later (decoding costs more than
  /// reading, and a rerun should signal the holder as soon as it can).
  func readRecordLater() -> RecordReading {
    let bytes: [UInt8]
    do throws(Errno) {
      let descriptor = try Syscalls.open(record, O_RDONLY | O_NOFOLLOW)
      defer { try? Syscalls.close(descriptor) }
      let status = try Syscalls.status(of: descriptor)
      guard status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1 else {
        return .done(.corrupt(path: record, reason: "it is not a plain file with a single link"))
      }
      bytes = try Syscalls.readAll(descriptor)
    } catch {
      if error.code == ENOENT { return .done(.none) }
      return .done(.corrupt(path: record, reason: "it cannot be read: \(error)"))
    }
    return .bytes(bytes, path: record, led: led)
  }

  private var temporaryRecordPrefix: String { ".\(led).state." }

  /// Removes the temporary records (only the LED's holder writes them).
  func removeTemporaryRecords() {
    let names = (try? Syscalls.directoryEntries(directory.path)) ?? []
    for name in names where name.hasPrefix(temporaryRecordPrefix) {
      try? Syscalls.unlink(directory.file(name))
    }
  }

  /// Writes the record to a new file, then renames it over the old one (atomic for readers).
  func writeRecord(_ value: TransmissionRecord) throws(ReservationError) {
    let temporary = directory.file(temporaryRecordPrefix + String(getpid()))
    let bytes: [UInt8]
    do {
      bytes = try value.encoded()
    } catch {
      throw .file(operation: "encode the record for", path: record, errno: Errno(code: EINVAL))
    }
    do throws(Errno) {
      try? Syscalls.unlink(temporary)
      let descriptor = try Syscalls.open(
        temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o644)
      let result = Result { () throws(Errno) in
        let written = try bytes.withUnsafeBytes { buffer in
          Result { () throws(Errno) in try Syscalls.write(descriptor, buffer) }
        }.get()
        if written != bytes.count { throw Errno(code: EIO) }
      }
      try? Syscalls.close(descriptor)
      try result.get()
      try Syscalls.rename(temporary, to: record)
    } catch {
      try? Syscalls.unlink(temporary)
      throw .file(operation: "write", path: record, errno: error)
    }
  }

  /// Runs `body` holding the tickets lock, which orders ticket handling between processes.
  private func withTicketsLock<Value>(_ body: () throws(ReservationError) -> Value)
    throws(ReservationError) -> Value
  {
    let descriptor = try openLockFile(tickets)
    defer { try? Syscalls.close(descriptor) }
    do throws(Errno) {
      _ = try Syscalls.lock(descriptor, exclusive: true, wait: true)
    } catch {
      throw .file(operation: "lock", path: tickets, errno: error)
    }
    return try body()
  }

  /// Takes the next ticket: a new file `<led>.wait.<n>`, locked by this process.
  func takeTicket() throws(ReservationError) -> Ticket {
    try withTicketsLock { () throws(ReservationError) in
      let last = allTickets().map(\.number).max() ?? 0
      let number = last + 1
      let digits = String(number)
      let path = directory.file(
        ticketPrefix + String(repeating: "0", count: max(0, 20 - digits.count)) + digits)
      let descriptor: Int32
      do throws(Errno) {
        descriptor = try Syscalls.open(
          path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o664)
        _ = try Syscalls.lock(descriptor, exclusive: true, wait: false)
      } catch {
        throw .file(operation: "create", path: path, errno: error)
      }
      return Ticket(number: number, path: path, descriptor: descriptor)
    }
  }

  /// Removes a ticket (after the LED was taken, or on giving up).
  func returnTicket(_ ticket: Ticket) {
    try? Syscalls.unlink(ticket.path)
    try? Syscalls.close(ticket.descriptor)
  }

  /// Whether no live ticket comes before `ticket`; dead tickets found on the way are removed.
  func isFirstInLine(_ ticket: Ticket) throws(ReservationError) -> Bool {
    try withTicketsLock { () throws(ReservationError) in
      for other in allTickets() where other.number < ticket.number {
        if holder(lockPath: other.path) == nil {
          try? Syscalls.unlink(other.path)
        } else {
          return false
        }
      }
      return true
    }
  }

  /// The tickets whose owners are alive, in order, with their owners.
  func liveTickets() -> [(path: String, holder: Int32)] {
    allTickets().compactMap { ticket in holder(lockPath: ticket.path).map { (ticket.path, $0) } }
  }

  private func allTickets() -> [(number: Int, path: String)] {
    let names = (try? Syscalls.directoryEntries(directory.path)) ?? []
    return names.compactMap { name -> (Int, String)? in
      guard name.hasPrefix(ticketPrefix) else { return nil }
      let digits = name.dropFirst(ticketPrefix.count)
      guard digits.count == 20, let number = Int(digits) else { return nil }
      return (number, directory.file(name))
    }.sorted { $0.0 < $1.0 }
  }
}
