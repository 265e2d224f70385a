/// Which device a transmission uses, whatever its kind: an LED by name, or a GPIO line by chip
/// and offset. The one value that names a device to the locks, the records, `status` and
/// `stop`.
///
/// Adding a kind of device (say a PC speaker), in this order:
/// 1. Here: a case; the compiler then asks for its `lockName` and `description`. Give its
///    lock names a prefix of their own (as `gpio/`) and parse them in `init?(lockName:)`.
/// 2. A driver module beside `LEDDriver` and `GPIODriver` (and its target in Package.swift):
///    a `TorchDevice` (save, claim, restore from a record, check a record) whose `id` is the
///    new case, its `Torch`, and its error type.
/// 3. `MorsetorchTool/Devices/DeviceHome.swift`: a case of `DeviceKind`, in `DeviceID.kind`
///    and `DeviceID.home` (the compiler asks for these), and the kind's home beside `LEDHome.swift`
///    and `GPIOLineHome.swift` (the compiler asks for all of it: its nouns, who may use it
///    and the udev rule that lets them, whether a device is there, its driver from a record,
///    its errors' report, `send`'s option and the options that go with it only, the choice
///    they make and the devices it opens, its listing and its option for `list`, how a shell
///    completes its devices, its option for `stop` and `status` and the devices it
///    chooses). The error report, the manual's rules and groups, the completion scripts,
///    `send`, `list`, `stop` and `status` ask it.
/// 4. The package's udev rules file (`Sources/morsetorch/Packaging/90-morsetorch.rules`):
///    the home's rule (a test compares them).
/// 5. Its options for `send` as cases of `SendOption` (where every option of `send` is named),
///    given to the home; the manual says the rest from the options.
/// 6. Tests: a folder for the driver, the home's process tests, a VM scenario on the kernel.
public enum DeviceID: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The LED class device `name` (`white:flash`).
  case led(String)
  /// Line `offset` of the GPIO chip `chip` (`gpiochip0`).
  case gpioLine(chip: String, offset: Int)
  /// The serial port the kernel names `name` (`ttyUSB0`, `/dev/ttyUSB0`): one transmission
  /// a port, whichever of its lines is keyed.
  case serialPort(String)
  /// The sound device `name` as the player names it (`default`, `plughw:CARD=Headphones`): one
  /// transmission a name.
  case sound(String)

  /// The name locks and records are kept under: the LED's name, or `gpio/CHIP/OFFSET` (a
  /// name no LED can have, since it has a `/`).
  public var lockName: String {
    switch self {
    case .led(let name): name
    case .gpioLine(let chip, let offset): "gpio/\(chip)/\(offset)"
    case .serialPort(let name): "serial/\(name)"
    case .sound(let name): "sound/\(name)"
    }
  }

  /// The device a lock name stands for; nil for one no device has.
  public init?(lockName: String) {
    if lockName.hasPrefix("sound/") {
      let name = lockName.dropFirst("sound/".count)
      guard Self.isSoundDeviceName(name) else { return nil }
      self = .sound(String(name))
      return
    }
    if lockName.hasPrefix("serial/") {
      let name = lockName.dropFirst("serial/".count)
      guard Self.isPortName(name) else { return nil }
      self = .serialPort(String(name))
      return
    }
    guard lockName.hasPrefix("gpio/") else {
      guard !lockName.isEmpty, !lockName.contains("/"), !lockName.contains("\0") else {
        return nil
      }
      self = .led(lockName)
      return
    }
    let parts = lockName.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[1].hasPrefix("gpiochip"), !parts[2].isEmpty,
      parts[2].utf8.allSatisfy({ (0x30...0x39).contains($0) }), parts[2].count <= 5,
      let offset = Int(parts[2]),
      // One name per line: `017` is no lock name of line 17 (it would list it twice).
      String(offset) == parts[2]
    else { return nil }
    self = .gpioLine(chip: String(parts[1]), offset: offset)
  }

  /// How people write it: the LED's name, or `gpiochip0:17`.
  public var description: String {
    switch self {
    case .led(let name): name
    case .gpioLine(let chip, let offset): "\(chip):\(offset)"
    case .serialPort(let name): "/dev/\(name)"
    case .sound(let name): "sound:\(name)"
    }
  }

  /// Whether `name` can be a sound device's as ALSA names it (`default`, `hw:1,0`,
  /// `plughw:CARD=Headphones,DEV=0`): letters, digits and `:,=_.-`, 64 bytes at most.
  public static func isSoundDeviceName(_ name: Substring) -> Bool {
    !name.isEmpty && name.utf8.count <= 64
      && name.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
          || (0x61...0x7A).contains(byte) || ":,=_.-".utf8.contains(byte)
      }
  }

  /// Whether `name` can be a serial port's as the kernel names it: `tty`, then letters,
  /// digits and `_` (`ttyS0`, `ttyUSB0`, `ttyAMA0`), 32 bytes at most.
  public static func isPortName(_ name: Substring) -> Bool {
    name.hasPrefix("tty") && name.count > 3 && name.utf8.count <= 32
      && name.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
          || (0x61...0x7A).contains(byte) || byte == 0x5F
      }
  }

  /// Ordered as their lock names are: the order every process takes locks in.
  public static func < (lhs: DeviceID, rhs: DeviceID) -> Bool { lhs.lockName < rhs.lockName }
}
