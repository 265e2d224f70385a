import GPIODriver
import LEDDriver
import TransmitterControl

/// How the user reads a device's lock name: an LED by its name, a GPIO line
/// (`gpio/gpiochip0/17`) as `gpiochip0:17`.
enum DeviceNames {
  /// Whether `lockName` is a GPIO line's.
  static func isGPIOLine(_ lockName: String) -> Bool {
    lockName.hasPrefix("gpio/")
  }

  /// `gpiochip0:17` for a GPIO line, the name itself for an LED; escaped for the terminal.
  static func shown(_ lockName: String) -> String {
    guard isGPIOLine(lockName) else { return TerminalText.escaped(lockName) }
    let parts = lockName.split(separator: "/", omittingEmptySubsequences: false)
    return TerminalText.escaped(parts.dropFirst().joined(separator: ":"))
  }

  /// "LED a", "LEDs a, b", "GPIO line gpiochip0:17", "GPIO lines …".
  static func naming(_ lockNames: [String]) -> String {
    let kind = lockNames.allSatisfy(isGPIOLine) && !lockNames.isEmpty ? "GPIO line" : "LED"
    return kind + (lockNames.count == 1 ? " " : "s ")
      + lockNames.map(shown).joined(separator: ", ")
  }

  /// The most devices one transmission may use: as many as its state records may name
  /// (`TransmissionRecord.groupLimit`), so that a killed sender's devices can all be restored.
  static var limit: Int { TransmissionRecord<SavedLEDState>.groupLimit }

  /// A usage error if `count` devices, of the kind `devices` names ("LEDs", "GPIO lines"),
  /// as `option` gave them, are more than `limit`; checked before any is reserved or claimed.
  static func checkLimit(_ count: Int, devices: String, option: String) throws(UsageError) {
    guard count <= limit else {
      throw .tooManyDevices(option: option, count: count, devices: devices, limit: limit)
    }
  }

  /// What is said of the devices once put back: "LED restored", "GPIO line left inactive".
  static func restored(_ lockNames: [String]) -> String {
    let plural = lockNames.count > 1
    if lockNames.allSatisfy(isGPIOLine) {
      return plural ? "GPIO lines left inactive" : "GPIO line left inactive"
    }
    return plural ? "LEDs restored" : "LED restored"
  }
}
