import LinuxSystem

/// Why a serial port could not be found, opened, keyed or put back.
public enum SerialError: Error, Hashable, CustomStringConvertible {
  /// `PORT[:LINE]` is not in that form.
  case invalidAddress(String)
  /// Nothing is at that path; `available` lists the ports there are.
  case portNotFound(path: String, available: [String])
  /// What is there is no tty with modem lines (a file, a pty, a console): `TIOCMGET`
  /// refused it.
  case noModemLines(path: String)
  /// The line named cannot be keyed (CTS, DSR, DCD and RI are read, not driven).
  case notAnOutput(SerialLine, path: String)
  /// The line named cannot be read (DTR and RTS are driven, not read).
  case notAnInput(SerialLine, path: String)
  /// The port is held in exclusive mode by another program (`EBUSY`).
  case busy(path: String)
  /// The port's lock file (`/run/lock/LCK..ttyUSB0`) is held: by the running process `pid`,
  /// or by a file that is no lock morsetorch can read (nil).
  case lockedBy(path: String, lockFile: String, pid: Int32?)
  /// `EACCES`/`EPERM` on the port's device.
  case permissionDenied(path: String, errno: Errno)
  /// The port went away (unplugged: `EIO`, `ENODEV`, `ENXIO` on a port in use).
  case vanished(path: String, errno: Errno)
  /// Any other failed call.
  case io(operation: String, path: String, errno: Errno)
  /// A state record names as its port something that is no tty device of the directory: it
  /// was not written by morsetorch, and nothing is opened.
  case notRecordable(path: String, directory: String)

  /// The error for `errno` from `operation` on `path`.
  public init(_ errno: Errno, operation: String, path: String) {
    switch errno {
    case .permissionDenied, .notPermitted, .readOnlyFileSystem:
      self = .permissionDenied(path: path, errno: errno)
    case .noSuchDevice, .noSuchDeviceOrAddress:
      self = .vanished(path: path, errno: errno)
    case .busy:
      self = .busy(path: path)
    default:
      // A USB adapter pulled out of a port in use answers EIO.
      self =
        errno == .ioError && operation != "open"
        ? .vanished(path: path, errno: errno) : .io(operation: operation, path: path, errno: errno)
    }
  }

  /// What went wrong and what to do about it, for a person.
  public var description: String {
    switch self {
    case .invalidAddress(let text):
      return "\(text.debugDescription) is not a serial port: give PORT or PORT:LINE, where PORT "
        + "is /dev/ttyUSB0, ttyUSB0 or a name under /dev/serial/by-id/, and LINE dtr or rts "
        + "(cts, dsr, dcd or ri to receive)."
    case .portNotFound(let path, let available):
      let choices =
        available.isEmpty
        ? "There are no serial ports with modem lines."
        : "Ports: \(available.map { ShownText.escaped($0) }.joined(separator: ", "))."
      return "There is no serial port \(shown: path). \(choices)"
    case .noModemLines(let path):
      return "\(shown: path) has no modem lines (it is no serial port, or a "
        + "pseudo-terminal or console): give a port such as /dev/ttyS0 or /dev/ttyUSB0."
    case .notAnOutput(let line, let path):
      return "\(line) of \(shown: path) is read, not driven: key dtr or rts."
    case .notAnInput(let line, let path):
      return "\(line) of \(shown: path) is driven, not read: receive on cts, dsr, dcd or ri."
    case .busy(let path):
      return "\(shown: path) is held in exclusive mode by another program: end it (or pick "
        + "another port) and try again."
    case .lockedBy(let path, let lockFile, let pid):
      let holder = pid.map { "process \($0)" } ?? "a file that is no lock of a running process"
      return "\(shown: path) is locked by \(holder) (\(shown: lockFile)): end it (or remove the "
        + "file if nothing uses the port) and try again."
    case .permissionDenied(let path, let errno):
      return "Cannot access \(shown: path): \(errno)."
    case .vanished(let path, let errno):
      return "The serial port disappeared (\(shown: path): \(errno)): it was unplugged or its "
        + "driver unloaded."
    case .io(let operation, let path, let errno):
      return "Could not \(operation) \(shown: path): \(errno)."
    case .notRecordable(let path, let directory):
      return "\(path.debugDescription) is not a serial port's device of \(shown: directory): a "
        + "state record naming it was not written by morsetorch."
    }
  }
}
