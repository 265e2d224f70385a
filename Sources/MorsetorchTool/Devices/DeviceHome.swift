import DeviceContract
import TransmitterControl

/// What the tool knows of one kind of device, in one place: how the user names it and reads
/// of it, whether it is there, and how it is put back from a record a killed sender left.
/// Each kind has a home of its own (`LEDHome`, `GPIOLineHome`), with its errors' statuses and
/// advice beside it; `DeviceID.home` is the one switch from a device to its kind.
protocol DeviceHome {
  /// "LED", "GPIO line".
  static var noun: String { get }
  /// "LEDs", "GPIO lines".
  static var nounPlural: String { get }
  /// The option that names one: `--led`, `--gpio`.
  static var option: String { get }
  /// What a stopped `send` says it left one as: "restored", "left inactive".
  static var restoredPhrase: String { get }

  /// Whether the device is there: a lock file that names none (planted, or left by one
  /// unplugged) holds no transmission worth looking at.
  func exists(environment: ProcessEnvironment) -> Bool

  /// The driver that puts the device back from `record` (a killed sender's); nil when it is
  /// not there, or the record does not fit it (said on standard error).
  func driver(record: TransmissionRecord, environment: ProcessEnvironment) throws
    -> (any TorchDevice)?
}

extension DeviceID {
  /// The home of this device's kind: the one place from a kind to what the tool does with
  /// it. A new case of `DeviceID` is a new home here.
  var home: any DeviceHome {
    switch self {
    case .led(let name): LEDHome(name: name)
    case .gpioLine(let chip, let offset): GPIOLineHome(chip: chip, offset: offset)
    }
  }

  /// The kind's noun, "LED" or "GPIO line", plural for `count` over one.
  func noun(count: Int = 1) -> String {
    let kind = type(of: home)
    return count == 1 ? kind.noun : kind.nounPlural
  }
}
