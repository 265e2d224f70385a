import DeviceContract
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
    kindNoun(devices) + " " + devices.map(shown).joined(separator: ", ")
  }

  /// The noun for `devices`: their kind's, or "devices" for several kinds.
  private static func kindNoun(_ devices: [DeviceID]) -> String {
    let nouns = Set(devices.map { $0.noun(count: devices.count) })
    guard nouns.count == 1, let noun = nouns.first else { return "devices" }
    return noun
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
    let phrases = Set(devices.map { type(of: $0.home).restoredPhrase })
    guard phrases.count == 1, let phrase = phrases.first else { return "devices put back" }
    return kindNoun(devices) + " " + phrase
  }
}
