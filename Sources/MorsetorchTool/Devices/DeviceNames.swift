import MorsePlayer
import TransmitterControl

/// How the user reads a device's lock name: an LED by its name, a GPIO line
/// (`gpio/gpiochip0/17`) as `gpiochip0:17`.
enum DeviceNames {
  /// How a device is shown: `white:flash`, `gpiochip0:17`, escaped for the terminal.
  static func shown(_ device: DeviceID) -> String {
    TerminalText.escaped(device.description)
  }

  /// "LED white:flash", "LEDs a, b", "GPIO line gpiochip0:17".
  static func naming(_ devices: [DeviceID]) -> String {
    let kind = devices.allSatisfy(\.isGPIOLine) && !devices.isEmpty ? "GPIO line" : "LED"
    return kind + (devices.count == 1 ? " " : "s ")
      + devices.map(shown).joined(separator: ", ")
  }

  /// The most devices one transmission may use: what a state record may name.
  static var limit: Int { TransmissionRecord.groupLimit }

  /// Throws `tooManyDevices` when `count` devices are more than `limit`.
  static func checkLimit(_ count: Int, devices: String, option: String) throws(UsageError) {
    guard count <= limit else {
      throw .tooManyDevices(option: option, count: count, devices: devices, limit: limit)
    }
  }

  /// What `send` says it left when it was stopped: "LED restored", "GPIO lines left inactive".
  static func restored(_ devices: [DeviceID]) -> String {
    let plural = devices.count > 1
    if devices.allSatisfy(\.isGPIOLine) {
      return plural ? "GPIO lines left inactive" : "GPIO line left inactive"
    }
    return plural ? "LEDs restored" : "LED restored"
  }
}
