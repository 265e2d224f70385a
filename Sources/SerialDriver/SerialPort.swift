import CLinuxSystem
import LinuxSystem
import Synchronization

/// An open serial port's device (`/dev/ttyS0`), spoken to with the tty ioctls: its modem
/// lines, its exclusive mode, and the settings that decide what open and close do.
///
/// Opened with `O_NOCTTY` (it never becomes the controlling terminal) and `O_NONBLOCK` (no
/// wait for DCD); nothing of its termios is changed: morsetorch sends no data.
public final class SerialPort: SerialModem {
  /// The path it was opened by.
  public let path: String
  private let descriptor: Mutex<FileDescriptor?>
  /// The thread in `waitForChange`, if one is (its id, for the signal that wakes it).
  private let waiting = Mutex<Int32?>(nil)

  /// Opens `path` for reading and writing.
  public init(path: String) throws(SerialError) {
    self.path = path
    do {
      descriptor = Mutex(
        try FileDescriptor.open(path, [.readWrite, .noControllingTerminal, .nonBlocking]))
    } catch {
      throw error == .noSuchFile
        ? .portNotFound(path: path, available: [])
        : SerialError(error, operation: "open", path: path)
    }
  }

  /// Runs `call` on the descriptor; `EBADF` once closed.
  private func onDescriptor(_ operation: String, _ call: (Int32) -> Int32) throws(SerialError) {
    let failure: Errno? = descriptor.withLock { descriptor in
      guard let raw = descriptor?.rawValue else { return .badFileDescriptor }
      return call(raw) == -1 ? Errno.current : nil
    }
    if let failure { throw SerialError(failure, operation: operation, path: path) }
  }

  /// The levels of all the lines now (`TIOCMGET`); `noModemLines` for a tty that has none.
  public func levels() throws(SerialError) -> SerialLevels {
    var bits: Int32 = 0
    do {
      try onDescriptor("read the modem lines of") { morse_serial_lines($0, &bits) }
    } catch .io(_, _, let errno) where errno == .inappropriateIOControl || errno == .invalidArgument
    {
      throw .noModemLines(path: path)
    }
    return SerialLevels(bits: bits)
  }

  /// `TIOCMBIS` or `TIOCMBIC` with the lines' bits.
  public func set(_ lines: Set<SerialLine>, up: Bool) throws(SerialError) {
    guard !lines.isEmpty else { return }
    let mask = lines.reduce(Int32(0)) { $0 | $1.bit }
    try onDescriptor("switch the modem lines of") { morse_serial_switch($0, mask, up ? 1 : 0) }
  }

  /// The settings the kernel keeps, which decided what the open did and decide what the close
  /// will do.
  public func settings() throws(SerialError) -> SerialSettings {
    var settings = morse_serial_settings()
    try onDescriptor("read the settings of") { morse_serial_settings_of($0, &settings) }
    return SerialSettings(
      speedIsZero: settings.speed_is_zero != 0, hangsUpOnClose: settings.hangs_up_on_close != 0)
  }

  /// Whether some program has put the port in exclusive mode (`TIOCGEXCL`).
  public func isExclusive() throws(SerialError) -> Bool {
    var result: Int32 = 0
    try onDescriptor("read the exclusive mode of") {
      result = morse_serial_is_exclusive($0)
      return result
    }
    return result == 1
  }

  /// Waits in `TIOCMIWAIT` until one of `lines` changes (true), or until `wakeWaiter` ends the
  /// wait (false). The descriptor stays locked meanwhile: `close` waits for it.
  public func waitForChange(of lines: Set<SerialLine>) throws(SerialError) -> Bool {
    let mask = lines.reduce(Int32(0)) { $0 | $1.bit }
    waiting.withLock { $0 = morse_serial_waiter_prepare() }
    defer { waiting.withLock { $0 = nil } }
    do {
      try onDescriptor("wait for the status lines of") { morse_serial_wait_change($0, mask) }
    } catch .io(_, _, let errno) where errno == .interrupted {
      return false
    }
    return true
  }

  /// Ends a `waitForChange` in progress on another thread (a signal aimed at it alone).
  public func wakeWaiter() {
    waiting.withLock { thread in
      if let thread { _ = morse_serial_wake_waiter(thread) }
    }
  }

  /// Closes the port; later calls fail with `EBADF`. Idempotent.
  public func close() {
    let taken = descriptor.withLock { descriptor in
      let taken = descriptor.take()
      return taken
    }
    if let taken { try? taken.close() }
  }
}
extension SerialPort: SerialStatusLines {}
