/// Which device a transmission uses, whatever its kind: an LED by name, or a GPIO line by chip
/// and offset. The one value that names a device to the locks, the records, `status` and
/// `stop`; a new kind of device is a new case here and a driver.
public enum DeviceID: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The LED class device `name` (`white:flash`).
  case led(String)
  /// Line `offset` of the GPIO chip `chip` (`gpiochip0`).
  case gpioLine(chip: String, offset: Int)

  /// The name locks and records are kept under: the LED's name, or `gpio/CHIP/OFFSET` (a
  /// name no LED can have, since it has a `/`).
  public var lockName: String {
    switch self {
    case .led(let name): name
    case .gpioLine(let chip, let offset): "gpio/\(chip)/\(offset)"
    }
  }

  /// The device a lock name stands for; nil for one no device has.
  public init?(lockName: String) {
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

  /// Whether it is a GPIO line.
  public var isGPIOLine: Bool {
    if case .gpioLine = self { return true }
    return false
  }

  /// How people write it: the LED's name, or `gpiochip0:17`.
  public var description: String {
    switch self {
    case .led(let name): name
    case .gpioLine(let chip, let offset): "\(chip):\(offset)"
    }
  }

  /// Ordered as their lock names are: the order every process takes locks in.
  public static func < (lhs: DeviceID, rhs: DeviceID) -> Bool { lhs.lockName < rhs.lockName }
}
