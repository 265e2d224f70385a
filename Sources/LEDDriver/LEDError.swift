import LinuxSystem

/// Why an LED could not be found, claimed, switched or restored.
public enum LEDError: Error, Hashable, CustomStringConvertible {
  /// The LED class directory does not exist: no LED support, or a wrong `MORSETORCH_LEDS_DIR`.
  case classDirectoryMissing(path: String)
  /// The LED class directory exists but holds no LED.
  case noLEDs(directory: String)
  /// A requested LED name that cannot name a directory entry ("", ".", "..", "/" or NUL in it).
  case invalidName(String)
  /// No LED has the requested name; `available` lists those that exist.
  case ledNotFound(String, available: [String])
  /// No LED's name matches the requested shell-style pattern; `available` lists those that
  /// exist.
  case noMatch(pattern: String, available: [String])
  /// `EACCES`/`EPERM` on an LED attribute: this user may not write the LED; or `EROFS`: it is
  /// on a read-only file system.
  case permissionDenied(path: String, errno: Errno)
  /// `EBUSY`: the LED is in use elsewhere, like a flash LED held by a camera.
  case busy(path: String)
  /// `ENOENT`/`ENODEV`/`ENXIO` on an LED in use: the device went away.
  case vanished(path: String, errno: Errno)
  /// Any other failed system call.
  case io(operation: String, path: String, errno: Errno)
  /// An attribute whose content is not what the kernel documents, like a non-numeric
  /// `max_brightness`.
  case malformed(path: String, content: String)

  /// The error for `errno` from `operation` ("read", "write", …) on `path`.
  ///
  /// `EACCES`/`EPERM`/`EROFS` → `permissionDenied`, `EBUSY` → `busy`, `ENOENT`/`ENODEV`/`ENXIO` →
  /// `vanished`, anything else → `io`.
  public init(_ errno: Errno, operation: String, path: String) {
    switch errno {
    case .permissionDenied, .notPermitted, .readOnlyFileSystem:
      self = .permissionDenied(path: path, errno: errno)
    case .busy: self = .busy(path: path)
    case .noSuchFile, .noSuchDevice, .noSuchDeviceOrAddress:
      self = .vanished(path: path, errno: errno)
    default: self = .io(operation: operation, path: path, errno: errno)
    }
  }

  /// What went wrong and what to do about it, for a person.
  public var description: String {
    switch self {
    case .classDirectoryMissing(let path):
      return "There is no LED class directory at \(shown: path): this system exposes no LEDs through "
        + "sysfs (or MORSETORCH_LEDS_DIR names the wrong directory)."
    case .noLEDs(let directory):
      return "There are no LEDs in \(shown: directory)."
    case .invalidName(let name):
      return "\(name.debugDescription) is not an LED name: a name is one entry of the LED class "
        + "directory (not empty, \".\" or \"..\", without \"/\")."
    case .ledNotFound(let name, let available):
      return "There is no LED named \(name.debugDescription). \(Self.choices(available))"
    case .noMatch(let pattern, let available):
      return "No LED name matches the pattern \(pattern.debugDescription). "
        + Self.choices(available)
    case .permissionDenied(let path, let errno):
      return "Cannot access \(shown: path): \(errno)."
    case .busy(let path):
      return "The LED is busy (\(shown: path): EBUSY): a flash LED is in use, perhaps by a camera. "
        + "Close the camera and try again."
    case .vanished(let path, let errno):
      return "The LED disappeared (\(shown: path): \(errno)): the device was unplugged or its driver "
        + "unloaded."
    case .io(let operation, let path, let errno):
      return "Could not \(operation) \(shown: path): \(errno)."
    case .malformed(let path, let content):
      let shown = content.count > 80 ? String(content.prefix(80)) + "…" : content
      return "Unexpected content in \(shown: path): \(shown.debugDescription)."
    }
  }

  private static func choices(_ available: [String]) -> String {
    available.isEmpty
      ? "There are no LEDs at all." : "Available: \(available.map { ShownText.escaped($0) }.joined(separator: ", "))."
  }
}
