import Glibc

/// An error number (`errno`) left by a failed system call.
///
/// Carries the symbolic name (`EACCES`) and the C library's text for it (`strerror_r(3)`), so an
/// error message can show both: "Permission denied (EACCES)". Two values are equal when their
/// codes are.
public struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
  /// The number itself, as found in `errno`.
  public let code: Int32
  /// The symbolic name, like `EACCES`; "errno 123" for a number without a known name.
  public let name: String
  /// The C library's description, like "Permission denied".
  public let message: String

  /// The error with number `code`.
  public init(code: Int32) {
    self.code = code
    self.name = Errno.symbolicNames[code] ?? "errno \(code)"
    self.message = Errno.text(for: code)
  }

  /// "Permission denied (EACCES)".
  public var description: String { "\(message) (\(name))" }

  /// Compares the codes only; name and message follow from the code.
  public static func == (lhs: Errno, rhs: Errno) -> Bool { lhs.code == rhs.code }

  /// Hashes the code only.
  public func hash(into hasher: inout Hasher) { hasher.combine(code) }

  /// `strerror_r(3)`, the thread-safe `strerror` (Swift sees the XSI variant: 0 on success).
  private static func text(for code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    let result = buffer.withUnsafeMutableBufferPointer { storage -> Int32 in
      guard let start = storage.baseAddress else { return ERANGE }
      return strerror_r(code, start, storage.count - 1)
    }
    guard result == 0 else { return "Unknown error \(code)" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static let symbolicNames: [Int32: String] = [
    EPERM: "EPERM", ENOENT: "ENOENT", ESRCH: "ESRCH", EINTR: "EINTR", EIO: "EIO",
    ENXIO: "ENXIO", E2BIG: "E2BIG", ENOEXEC: "ENOEXEC", EBADF: "EBADF", ECHILD: "ECHILD",
    EAGAIN: "EAGAIN", ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT", EBUSY: "EBUSY",
    EEXIST: "EEXIST", EXDEV: "EXDEV", ENODEV: "ENODEV", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR",
    EINVAL: "EINVAL", ENFILE: "ENFILE", EMFILE: "EMFILE", ENOTTY: "ENOTTY", EFBIG: "EFBIG",
    ENOSPC: "ENOSPC", ESPIPE: "ESPIPE", EROFS: "EROFS", EMLINK: "EMLINK", EPIPE: "EPIPE",
    ERANGE: "ERANGE", EDEADLK: "EDEADLK", ENAMETOOLONG: "ENAMETOOLONG", ENOSYS: "ENOSYS",
    ENOTEMPTY: "ENOTEMPTY", ELOOP: "ELOOP", ENODATA: "ENODATA", ETIMEDOUT: "ETIMEDOUT",
    EOPNOTSUPP: "EOPNOTSUPP", ESTALE: "ESTALE", ENOTCONN: "ENOTCONN", ECANCELED: "ECANCELED",
    ENOMEDIUM: "ENOMEDIUM", EOVERFLOW: "EOVERFLOW",
  ]
}

/// The thin layer over Glibc file I/O: the only place in MorseCore that touches a descriptor.
///
/// Shaped after apple/swift-system: every wrapper names the C call it stands for, `-1` becomes a
/// typed `Errno`, and `EINTR` is retried. Paths are used as given; nothing here follows or
/// refuses symlinks on its own (a real `/sys/class/leds/NAME` is a symlink into `/sys/devices`).
enum Syscalls {
  /// The largest attribute `readFile` accepts; sysfs attributes fit in one page.
  static let maximumFileSize = 65_536

  /// Runs `body` until it stops failing with `EINTR`; `-1` from it becomes the `errno` it left.
  static func retryingOnInterrupt<Value: FixedWidthInteger>(
    _ body: () -> Value
  ) throws(Errno) -> Value {
    while true {
      let result = body()
      guard result == -1 else { return result }
      let code = errno
      if code != EINTR { throw Errno(code: code) }
    }
  }

  /// `open(2)`; `O_CLOEXEC` is always added so no descriptor leaks into a child process.
  static func open(_ path: String, _ flags: Int32) throws(Errno) -> Int32 {
    try retryingOnInterrupt { Glibc.open(path, flags | O_CLOEXEC) }
  }

  /// `close(2)`. Not retried on `EINTR`: Linux has released the descriptor either way, and a
  /// second close could hit a descriptor another thread has just opened.
  static func close(_ descriptor: Int32) throws(Errno) {
    if Glibc.close(descriptor) == -1 { throw Errno(code: errno) }
  }

  /// `read(2)` into `buffer`; returns the number of bytes read, 0 at end of file.
  static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno)
    -> Int
  {
    try retryingOnInterrupt { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
  }

  /// `write(2)` of `bytes`; returns the number of bytes written.
  static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
    try retryingOnInterrupt { Glibc.write(descriptor, bytes.baseAddress, bytes.count) }
  }

  /// `access(2)`: whether the real user may access `path` in `mode` (`R_OK`, `W_OK`, …).
  static func isAccessible(_ path: String, _ mode: Int32) -> Bool {
    (try? retryingOnInterrupt { Glibc.access(path, mode) }) != nil
  }

  /// `stat(2)`, which follows symlinks: whether `path` is (or links to) a directory.
  static func isDirectory(_ path: String) throws(Errno) -> Bool {
    var status = stat()
    _ = try retryingOnInterrupt { stat(path, &status) }
    return status.st_mode & S_IFMT == S_IFDIR
  }

  /// `opendir(3)`, `readdir(3)` and `closedir(3)`: the names in a directory, without `.` and `..`,
  /// in the order the file system gives them.
  static func directoryEntries(_ path: String) throws(Errno) -> [String] {
    guard let directory = opendir(path) else { throw Errno(code: errno) }
    defer { closedir(directory) }
    var names: [String] = []
    while true {
      // readdir returns NULL both at the end and on error; only errno tells them apart.
      errno = 0
      guard let entry = readdir(directory) else {
        if errno != 0 { throw Errno(code: errno) }
        return names
      }
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
  }

  /// Opens `path` with `flags`, runs `body` on the descriptor and closes it; an error from
  /// `body` wins over one from `close`.
  static func withDescriptor<Value>(
    _ path: String, _ flags: Int32, _ body: (Int32) throws(Errno) -> Value
  ) throws(Errno) -> Value {
    let descriptor = try open(path, flags)
    let result: Result<Value, Errno>
    do throws(Errno) {
      result = .success(try body(descriptor))
    } catch {
      result = .failure(error)
    }
    let closeError: Errno?
    do throws(Errno) {
      try close(descriptor)
      closeError = nil
    } catch {
      closeError = error
    }
    let value = try result.get()
    if let closeError { throw closeError }
    return value
  }

  /// The whole content of `path`: `open(2)` read-only, `read(2)` to the end, `close(2)`.
  /// Throws `EFBIG` past `maximumFileSize`, which no LED attribute reaches.
  static func readFile(_ path: String) throws(Errno) -> [UInt8] {
    try withDescriptor(path, O_RDONLY) { descriptor throws(Errno) in try readAll(descriptor) }
  }

  /// Replaces the content of an existing file with `bytes` in one `write(2)`.
  ///
  /// `O_TRUNC` keeps a plain file right ("0\n" over "255\n" leaves "0\n", not "055\n") and is
  /// ignored by sysfs. No `O_CREAT`: a missing attribute means the LED is gone, and must not
  /// turn into a new file. A short write counts as `EIO`: sysfs takes each write as a whole
  /// value, so writing the rest separately would send a second, wrong value.
  static func replaceFile(_ path: String, with bytes: [UInt8]) throws(Errno) {
    try withDescriptor(path, O_WRONLY | O_TRUNC) { descriptor throws(Errno) in
      let written = try bytes.withUnsafeBytes { buffer in
        Result { () throws(Errno) in try write(descriptor, buffer) }
      }.get()
      if written != bytes.count { throw Errno(code: EIO) }
    }
  }
}

// MARK: - Runtime directory, locks and processes (for one transmitter per LED)

extension Syscalls {
  /// `open(2)` with a creation mode, for files morsetorch makes itself.
  static func open(_ path: String, _ flags: Int32, mode: mode_t) throws(Errno) -> Int32 {
    try retryingOnInterrupt { Glibc.open(path, flags | O_CLOEXEC, mode) }
  }

  /// `fstat(2)`.
  static func status(of descriptor: Int32) throws(Errno) -> stat {
    var status = stat()
    _ = try retryingOnInterrupt { fstat(descriptor, &status) }
    return status
  }

  /// `lstat(2)`: the status of `path` itself, not of what a symlink points to.
  static func linkStatus(_ path: String) throws(Errno) -> stat {
    var status = stat()
    _ = try retryingOnInterrupt { lstat(path, &status) }
    return status
  }

  /// `fchmod(2)`.
  static func changeMode(_ descriptor: Int32, _ mode: mode_t) throws(Errno) {
    _ = try retryingOnInterrupt { fchmod(descriptor, mode) }
  }

  /// `mkdir(2)`.
  static func makeDirectory(_ path: String, mode: mode_t) throws(Errno) {
    _ = try retryingOnInterrupt { mkdir(path, mode) }
  }

  /// `rename(2)`: atomically replaces `destination` (a symlink there is replaced, not followed).
  static func rename(_ source: String, to destination: String) throws(Errno) {
    _ = try retryingOnInterrupt { Glibc.rename(source, destination) }
  }

  /// `unlink(2)`.
  static func unlink(_ path: String) throws(Errno) {
    _ = try retryingOnInterrupt { Glibc.unlink(path) }
  }

  /// `geteuid(2)`.
  static var effectiveUserID: uid_t { geteuid() }

  /// `fcntl(F_SETLK)` / `fcntl(F_SETLKW)`: a POSIX record lock on the whole file.
  ///
  /// POSIX locks (not `flock`) because `F_GETLK` names the process holding one: the kernel's
  /// word on who owns an LED. Returns false when another process holds a conflicting lock
  /// and `wait` is false. The lock goes away when the process exits, however it exits.
  static func lock(_ descriptor: Int32, exclusive: Bool, wait: Bool) throws(Errno) -> Bool {
    var region = flock()
    region.l_type = Int16(exclusive ? F_WRLCK : F_RDLCK)
    region.l_whence = Int16(SEEK_SET)
    do throws(Errno) {
      _ = try retryingOnInterrupt { fcntl(descriptor, wait ? F_SETLKW : F_SETLK, &region) }
      return true
    } catch {
      if error.code == EAGAIN || error.code == EACCES { return false }
      throw error
    }
  }

  /// `fcntl(F_GETLK)`: the process holding a lock that conflicts with a write lock, if any.
  static func lockHolder(_ descriptor: Int32) throws(Errno) -> pid_t? {
    var region = flock()
    region.l_type = Int16(F_WRLCK)
    region.l_whence = Int16(SEEK_SET)
    _ = try retryingOnInterrupt { fcntl(descriptor, F_GETLK, &region) }
    return region.l_type == Int16(F_UNLCK) ? nil : region.l_pid
  }

  /// `read(2)` from `descriptor` to the end, up to `maximumFileSize`.
  static func readAll(_ descriptor: Int32) throws(Errno) -> [UInt8] {
    var content: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = try chunk.withUnsafeMutableBytes { buffer in
        Result { () throws(Errno) in try read(descriptor, into: buffer) }
      }.get()
      if count == 0 { return content }
      content.append(contentsOf: chunk[..<count])
      if content.count > maximumFileSize { throw Errno(code: EFBIG) }
    }
  }

  /// `poll(2)` on one descriptor for input, up to `milliseconds`; whether it became ready.
  static func waitUntilReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return Glibc.poll(&request, 1, milliseconds) > 0
  }
}

/// Standard output and standard error, written with `write(2)` directly.
public enum StandardStreams {
  /// Which stream.
  public enum Stream: Int32 {
    /// Standard output (descriptor 1).
    case output = 1
    /// Standard error (descriptor 2).
    case error = 2
  }

  /// Writes all of `text`; false if the stream is closed or broken (`EPIPE`, …).
  @discardableResult
  public static func write(_ text: String, to stream: Stream) -> Bool {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written: Int
      do throws(Errno) {
        written = try bytes.withUnsafeBytes { buffer in
          Result { () throws(Errno) in try Syscalls.write(stream.rawValue, buffer) }
        }.get()
      } catch {
        return false
      }
      bytes = bytes.dropFirst(written)
    }
    return true
  }

  /// Whether the stream is a terminal (`isatty(3)`).
  public static func isTerminal(_ stream: Stream) -> Bool { isatty(stream.rawValue) == 1 }
}

/// A process, held by a pidfd where the kernel offers one (Linux 5.3, glibc 2.36).
///
/// A pidfd names one process for as long as it is open, even after its number is reused:
/// signalling through it can never hit a stranger that inherited the pid.
struct ProcessHandle: ~Copyable {
  /// The process ID.
  let pid: pid_t
  private let descriptor: Int32

  private typealias PidfdOpen = @convention(c) (pid_t, UInt32) -> Int32
  private typealias PidfdSendSignal =
    @convention(c) (Int32, Int32, UnsafeMutableRawPointer?, UInt32)
    -> Int32

  // glibc's pidfd wrappers are not in Swift's Glibc module; look them up at run time.
  private nonisolated(unsafe) static let library = dlopen(nil, RTLD_NOW)
  private static let openFunction: PidfdOpen? = dlsym(library, "pidfd_open").map {
    unsafeBitCast($0, to: PidfdOpen.self)
  }
  private static let sendSignalFunction: PidfdSendSignal? = dlsym(library, "pidfd_send_signal")
    .map { unsafeBitCast($0, to: PidfdSendSignal.self) }

  /// `pidfd_open(2)`; without pidfd support, a handle that falls back to the bare pid.
  init(pid: pid_t) throws(Errno) {
    self.pid = pid
    if let open = Self.openFunction {
      let descriptor = open(pid, 0)
      if descriptor < 0 && errno != ENOSYS { throw Errno(code: errno) }
      self.descriptor = descriptor
    } else {
      descriptor = -1
    }
  }

  deinit {
    if descriptor >= 0 { Glibc.close(descriptor) }
  }

  /// `pidfd_send_signal(2)`, or `kill(2)` where pidfds are missing.
  func send(_ signal: Int32) throws(Errno) {
    if descriptor >= 0, let sendSignal = Self.sendSignalFunction {
      _ = try Syscalls.retryingOnInterrupt { sendSignal(descriptor, signal, nil, 0) }
    } else {
      _ = try Syscalls.retryingOnInterrupt { kill(pid, signal) }
    }
  }

  /// Waits up to `timeout` for the process to exit; whether it did.
  func waitForExit(timeout: Duration) -> Bool {
    let milliseconds = Int32(
      clamping: timeout.components.seconds * 1000
        + timeout.components.attoseconds / 1_000_000_000_000_000)
    if descriptor >= 0 {
      return Syscalls.waitUntilReadable(descriptor, milliseconds: milliseconds)
    }
    // No pidfd: ask kill(pid, 0) every millisecond.
    for _ in 0..<max(1, milliseconds) {
      if kill(pid, 0) != 0 && errno == ESRCH { return true }
      usleep(1000)
    }
    return false
  }
}

// MARK: - Starting a detached copy of the tool (`send --detach`)

extension Syscalls {
  /// `pipe(2)` with both ends close-on-exec: (read end, write end).
  static func makePipe() throws(Errno) -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    _ = try retryingOnInterrupt { pipe(&ends) }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (ends[0], ends[1])
  }

  /// `posix_spawn(3)` of `path` with `arguments` (argv[0] first) and `environment`; each
  /// (source, target) in `descriptors` is `dup2`'d in the child, standard input is /dev/null,
  /// and the child starts with no signal blocked and the usual dispositions.
  static func spawn(
    _ path: String, arguments: [String], environment: [String: String],
    descriptors: [(source: Int32, target: Int32)]
  ) throws(Errno) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    for (source, target) in descriptors {
      posix_spawn_file_actions_adddup2(&actions, source, target)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    if status != 0 { throw Errno(code: status) }
    return pid
  }

  /// `waitpid(2)`: the exit status of `pid` (128 + the signal if a signal ended it).
  static func waitForExit(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      if errno != EINTR { return 70 }
    }
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
  }

  /// `dup2(2)` of /dev/null over `targets`.
  static func silence(_ targets: [Int32]) {
    let null = Glibc.open("/dev/null", O_RDWR | O_CLOEXEC)
    guard null >= 0 else { return }
    for target in targets { _ = dup2(null, target) }
    Glibc.close(null)
  }

  /// `close(2)` of every descriptor above standard error but `keep` (listed in /proc/self/fd).
  static func closeInheritedDescriptors(keeping keep: Int32) {
    let names = (try? directoryEntries("/proc/self/fd")) ?? []
    for descriptor in names.compactMap(Int32.init) where descriptor > 2 && descriptor != keep {
      Glibc.close(descriptor)
    }
  }

  /// `setsid(2)`: a session of its own, away from the terminal (and its hangup).
  static func startSession() { _ = setsid() }

  /// `readlink("/proc/self/exe")`: the path of the running executable.
  static func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
