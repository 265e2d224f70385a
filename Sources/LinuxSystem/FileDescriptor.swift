import CLinuxSystem
import Glibc
import Instants

/// An open file descriptor that closes itself.
///
/// Noncopyable, so exactly one owner closes it: when the owner ends (`deinit`) or by
/// `close()`, whose error is reported. Every call on it retries `EINTR` and throws a typed
/// `Errno`. The standard streams are borrowed (`standardInput`…): they are never closed.
public struct FileDescriptor: ~Copyable, Sendable {
  /// The number the kernel gave it.
  package let rawValue: Int32
  private let isOwned: Bool

  /// Takes ownership of `rawValue`.
  package init(owning rawValue: Int32) {
    self.rawValue = rawValue
    isOwned = true
  }

  private init(borrowing rawValue: Int32) {
    self.rawValue = rawValue
    isOwned = false
  }

  deinit {
    if isOwned { _ = HeldRecordLocks.close(rawValue) }
  }

  /// Descriptor 0, not closed when dropped.
  public static var standardInput: FileDescriptor { FileDescriptor(borrowing: 0) }
  /// Descriptor 1, not closed when dropped.
  public static var standardOutput: FileDescriptor { FileDescriptor(borrowing: 1) }

  /// `open(2)` with `O_CLOEXEC` added, so no descriptor leaks into a child process;
  /// `permissions` is the mode of a file that `.create` makes.
  public static func open(
    _ path: String, _ options: OpenOptions, permissions: UInt32 = 0o644
  ) throws(Errno) -> FileDescriptor {
    let raw = try SystemCall.retryingOnInterrupt {
      Glibc.open(path, options.rawValue | O_CLOEXEC, mode_t(permissions))
    }
    return FileDescriptor(owning: raw)
  }

  /// Opens `path`, relative to this directory, without leaving it and without following any
  /// symlink on the way, the last component included (`openat2(2)` with `RESOLVE_BENEATH |
  /// RESOLVE_NO_SYMLINKS`, or component by component with `O_NOFOLLOW` on older kernels).
  /// `..`, `.`, an absolute path or a symlink anywhere fail (`EXDEV` or `ELOOP`).
  public func open(
    beneath path: String, _ options: OpenOptions, permissions: UInt32 = 0o644
  ) throws(Errno) -> FileDescriptor {
    let raw = try SystemCall.retryingOnInterrupt {
      morse_open_beneath(rawValue, path, options.rawValue, mode_t(permissions))
    }
    return FileDescriptor(owning: raw)
  }

  /// `close(2)`, reporting its error. Not retried on `EINTR`: Linux has released the
  /// descriptor either way, and a second close could hit one another thread just opened.
  public consuming func close() throws(Errno) {
    let raw = rawValue
    let owned = isOwned
    discard self
    if owned && HeldRecordLocks.close(raw) == -1 { throw Errno.current }
  }

  /// Gives up ownership: the number, which the caller must close.
  consuming func releaseOwnership() -> Int32 {
    let raw = rawValue
    discard self
    return raw
  }

  /// `read(2)` into `buffer`; the number of bytes read, 0 at end of file.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    try SystemCall.retryingOnInterrupt { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
  }

  /// `read(2)` to the end of the file; throws `EFBIG` past `limit` bytes.
  public func readAll(limit: Int = 65_536) throws(Errno) -> [UInt8] {
    var content: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = try chunk.withUnsafeMutableBytes { buffer in
        Result { () throws(Errno) in try read(into: buffer) }
      }.get()
      if count == 0 { return content }
      content.append(contentsOf: chunk[..<count])
      if content.count > limit { throw .fileTooLarge }
    }
  }

  /// `write(2)` of `bytes`; the number of bytes written (perhaps fewer than asked).
  public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
    try SystemCall.retryingOnInterrupt { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
  }

  /// One `write(2)` of all of `bytes`; a short write is `EIO` (sysfs and record files take a
  /// write as a whole value: writing the rest separately would make a second, wrong one).
  public func writeWhole(_ bytes: [UInt8]) throws(Errno) {
    let written = try bytes.withUnsafeBytes { buffer in
      Result { () throws(Errno) in try write(buffer) }
    }.get()
    if written != bytes.count { throw .ioError }
  }

  /// `write(2)` until all of `bytes` is written. With `event`, a non-blocking descriptor whose
  /// pipe is full (`EAGAIN`) is waited on (`poll(2)`) until it can take more or `event` fires:
  /// false then, with part of `bytes` perhaps written.
  @discardableResult
  public func writeAll(_ bytes: some Collection<UInt8>, unlessFired event: OneShotEvent? = nil)
    throws(Errno) -> Bool
  {
    var rest = Array(bytes)[...]
    while !rest.isEmpty {
      do throws(Errno) {
        let written = try rest.withUnsafeBytes { buffer in
          Result { () throws(Errno) in try write(buffer) }
        }.get()
        rest = rest.dropFirst(written)
      } catch  where error == .wouldBlock && event != nil {
        guard let event, wait(for: POLLOUT, unlessFired: event) else { return false }
      }
    }
    return true
  }

  /// `pwrite(2)` of all of `bytes` at `offset`, the file's position left alone; `ESPIPE` on a
  /// pipe or a terminal.
  public func writeWhole(_ bytes: [UInt8], at offset: Int) throws(Errno) {
    var done = 0
    while done < bytes.count {
      let written = try bytes.withUnsafeBytes { buffer in
        Result { () throws(Errno) in
          try SystemCall.retryingOnInterrupt {
            pwrite(rawValue, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
          }
        }
      }.get()
      done += written
    }
  }

  /// `fstat(2)`.
  public func status() throws(Errno) -> FileStatus {
    var status = stat()
    _ = try SystemCall.retryingOnInterrupt { fstat(rawValue, &status) }
    return FileStatus(status)
  }

  /// Whether the file is on sysfs (`fstatfs(2)`), where a write replaces the whole value.
  public var isOnSysfs: Bool { morse_is_on_sysfs(rawValue) == 1 }

  /// `ftruncate(2)` to nothing.
  public func truncate() throws(Errno) {
    _ = try SystemCall.retryingOnInterrupt { Glibc.ftruncate(rawValue, 0) }
  }

  /// `fchmod(2)`.
  public func setPermissions(_ permissions: UInt32) throws(Errno) {
    _ = try SystemCall.retryingOnInterrupt { fchmod(rawValue, mode_t(permissions)) }
  }
  /// `fchown(2)`: gives the file to user `owner` and group `group`.
  public func setOwner(_ owner: UInt32, group: UInt32) throws(Errno) {
    _ = try SystemCall.retryingOnInterrupt { fchown(rawValue, owner, group) }
  }

  /// `fcntl(F_SETLK)` / `fcntl(F_SETLKW)`: a POSIX record lock on the whole file.
  ///
  /// POSIX locks (not `flock`) because `F_GETLK` names the process holding one. Returns false
  /// when another process holds a conflicting lock and `wait` is false. The lock goes away when
  /// the process exits, however it exits.
  public func lock(exclusive: Bool, wait: Bool) throws(Errno) -> Bool {
    let identity = try status().identity
    // Another name of a file whose lock this process holds: a lock through it would change
    // (or, once closed, end) the one held.
    guard HeldRecordLocks.mayLock(identity, by: rawValue) else { throw .deadlock }
    var region = flock()
    region.l_type = Int16(exclusive ? F_WRLCK : F_RDLCK)
    region.l_whence = Int16(SEEK_SET)
    do throws(Errno) {
      _ = try SystemCall.retryingOnInterrupt { fcntl(rawValue, wait ? F_SETLKW : F_SETLK, &region) }
      HeldRecordLocks.didLock(identity, by: rawValue)
      return true
    } catch  where error == .wouldBlock || error == .permissionDenied {
      return false
    }
  }

  /// Whether this process holds a record lock (`lock(exclusive:wait:)`) on this file,
  /// through this descriptor or another.
  public var isLockedByThisProcess: Bool {
    (try? status()).map { HeldRecordLocks.isLocked($0.identity) } ?? false
  }

  /// `fcntl(F_GETLK)`: the process holding a lock that conflicts with a write lock, if any.
  public func lockHolder() throws(Errno) -> Int32? {
    var region = flock()
    region.l_type = Int16(F_WRLCK)
    region.l_whence = Int16(SEEK_SET)
    _ = try SystemCall.retryingOnInterrupt { fcntl(rawValue, F_GETLK, &region) }
    return region.l_type == Int16(F_UNLCK) ? nil : region.l_pid
  }

  /// `poll(2)` for input, up to `timeout`; whether the descriptor became readable.
  public func waitUntilReadable(timeout: Duration) -> Bool {
    var request = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
    return Glibc.poll(&request, 1, timeout.wholeMilliseconds) > 0
  }

  /// `poll(2)` for input here and on `event`'s eventfd, with no time limit: true once this
  /// descriptor is readable (or at its end, or failed: the next read says which), false once
  /// `event` has fired — at once, even from a signal handler, whichever thread ran it.
  public func waitUntilReadable(unlessFired event: OneShotEvent) -> Bool {
    wait(for: POLLIN, unlessFired: event)
  }

  /// Waits for input unless `event` fires first (as `waitUntilReadable(unlessFired:)`), then
  /// `read(2)` into `buffer`: the number of bytes read, 0 at end of file; nil once `event` has
  /// fired. A non-blocking descriptor whose input another reader took first (`EAGAIN`), or a
  /// FIFO no writer has opened yet, is waited on again.
  public func read(into buffer: UnsafeMutableRawBufferPointer, unlessFired event: OneShotEvent)
    throws(Errno) -> Int?
  {
    while waitUntilReadable(unlessFired: event) {
      do throws(Errno) {
        return try read(into: buffer)
      } catch  where error == .wouldBlock {
        continue
      }
    }
    return nil
  }

  /// `poll(2)` for `events` (`POLLIN`, `POLLOUT`) here and on `event`'s eventfd, with no time
  /// limit: true once this descriptor is ready (or failed: the next call says how), false once
  /// `event` has fired.
  private func wait(for events: Int32, unlessFired event: OneShotEvent) -> Bool {
    var requests = [
      pollfd(fd: rawValue, events: Int16(events), revents: 0),
      pollfd(fd: event.descriptor, events: Int16(POLLIN), revents: 0),
    ]
    while !event.isFired {
      let count = Glibc.poll(&requests, 2, -1)
      // A signal only interrupts the poll (EINTR): the event says whether to go on.
      if count == -1 && errno != EINTR { return true }
      if count > 0 && requests[0].revents != 0 { return !event.isFired }
    }
    return false
  }

  /// What a wait for input ended with.
  public enum Readiness: Sendable, Equatable {
    /// The descriptor is readable (or at its end, or failed: the next read says which).
    case readable
    /// The time allowed passed first.
    case timedOut
    /// The event fired first.
    case fired
  }

  /// `poll(2)` for input here and on `event`'s eventfd, up to `timeout`.
  public func waitUntilReadable(within timeout: Duration, unlessFired event: OneShotEvent)
    -> Readiness
  {
    let deadline = MonotonicTime.now() + timeout
    var requests = [
      pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0),
      pollfd(fd: event.descriptor, events: Int16(POLLIN), revents: 0),
    ]
    while !event.isFired {
      let left = deadline - MonotonicTime.now()
      guard left > .zero else { return .timedOut }
      // Rounded up: a poll never returns before the deadline it was given.
      let count = Glibc.poll(&requests, 2, (left + .nanoseconds(999_999)).wholeMilliseconds)
      if count == -1 && errno != EINTR { return .readable }
      if count > 0 && requests[0].revents != 0 { return event.isFired ? .fired : .readable }
    }
    return .fired
  }
}

extension Duration {
  /// The duration in whole milliseconds, clamped to what `poll(2)` takes.
  var wholeMilliseconds: Int32 {
    Int32(clamping: components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
  }
}
