import LinuxSystem

/// Why a GPIO chip or line could not be found, requested, switched or released.
public enum GPIOError: Error, Hashable, CustomStringConvertible {
  /// `CHIP:LINE` is not in that form.
  case invalidAddress(String)
  /// No chip has that name, path or label; `available` lists the chips (name and label).
  case chipNotFound(String, available: [String])
  /// What is at that path is no chip (not a character device, or one that answers no GPIO
  /// request): a file, a directory, another device.
  case notAChip(path: String)
  /// The chip has no line of that offset or name; `available` lists its named lines.
  case lineNotFound(chip: String, line: String, lines: Int, named: [String])
  /// Another consumer holds the line (`consumer`, as the kernel names it).
  case lineBusy(chip: String, offset: Int, consumer: String)
  /// `EACCES`/`EPERM` (or `EROFS`) on the chip's device.
  case permissionDenied(path: String, errno: Errno)
  /// The chip went away (`ENODEV`, `ENXIO`, `ENOENT` on a chip in use; `ENOENT` when opening
  /// a path is `chipNotFound`).
  case vanished(path: String, errno: Errno)
  /// Any other failed call.
  case io(operation: String, path: String, errno: Errno)
  /// A state record names as its chip something that is no `gpiochipN` device of the GPIO
  /// directory: it was not written by morsetorch, and nothing is opened.
  case notRecordable(path: String, directory: String)

  /// The error for `errno` from `operation` on `path`.
  public init(_ errno: Errno, operation: String, path: String) {
    switch errno {
    case .permissionDenied, .notPermitted, .readOnlyFileSystem:
      self = .permissionDenied(path: path, errno: errno)
    case .noSuchFile, .noSuchDevice, .noSuchDeviceOrAddress:
      self = .vanished(path: path, errno: errno)
    default: self = .io(operation: operation, path: path, errno: errno)
    }
  }

  /// A chip as `chipNotFound` lists it: its name, and its label in parentheses if it has one.
  static func chipChoice(name: String, label: String) -> String {
    label.isEmpty ? name : "\(name) (\(label))"
  }

  /// What went wrong and what to do about it, for a person.
  public var description: String {
    switch self {
    case .invalidAddress(let text):
      return "\(text.debugDescription) is not a GPIO line: give CHIP:LINE, where CHIP is "
        + "gpiochip0, /dev/gpiochip0 or the chip's label, and LINE an offset (17) or a line "
        + "name (GPIO17)."
    case .chipNotFound(let chip, let available):
      let choices =
        available.isEmpty
        ? "There are no GPIO chips at all." : "Chips: \(available.map { ShownText.escaped($0) }.joined(separator: ", "))."
      return "There is no GPIO chip \(chip.debugDescription). \(choices)"
    case .notAChip(let path):
      return "\(shown: path) is not a GPIO chip: a chip is the kernel's character device "
        + "/dev/gpiochipN."
    case .lineNotFound(let chip, let line, let lines, let named):
      let names = named.isEmpty ? "" : " Named lines: \(named.prefix(40).map { ShownText.escaped($0) }.joined(separator: ", "))."
      return "GPIO chip \(shown: chip) has no line \(line.debugDescription): its lines are 0 to "
        + "\(lines - 1).\(names)"
    case .lineBusy(let chip, let offset, let consumer):
      let who = consumer.isEmpty ? "another consumer" : "\"\(shown: consumer)\""
      return "GPIO line \(offset) of \(shown: chip) is in use by \(who). Free it (or pick another "
        + "line) and try again."
    case .permissionDenied(let path, let errno):
      return "Cannot access \(shown: path): \(errno)."
    case .vanished(let path, let errno):
      return "The GPIO chip disappeared (\(shown: path): \(errno)): its device was removed or its "
        + "driver unloaded."
    case .io(let operation, let path, let errno):
      return "Could not \(operation) \(shown: path): \(errno)."
    case .notRecordable(let path, let directory):
      return "\(path.debugDescription) is not a GPIO chip device of \(shown: directory) (a gpiochipN "
        + "character device): a state record naming it was not written by morsetorch."
    }
  }
}
