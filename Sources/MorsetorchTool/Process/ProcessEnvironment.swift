import GPIODriver
import ReceiveSources
import SerialDriver

/// What a run of the tool is given besides its words: the environment variables, and the
/// kinds of GPIO chip it may open.
struct ProcessEnvironment: Sendable {
  /// The environment variables.
  let variables: [String: String]
  /// Another kind of GPIO chip besides the kernel's (tests only); nil in the shipped tool.
  let gpioStandIn: (any GPIOChipStandIn)?

  init(variables: [String: String], gpioStandIn: (any GPIOChipStandIn)? = nil) {
    self.variables = variables
    self.gpioStandIn = gpioStandIn
  }

  /// The variable `name`, if set.
  subscript(name: String) -> String? { variables[name] }

  /// Where the GPIO chips are (`MORSETORCH_GPIO_DIR`, else /dev), of the kinds allowed here.
  var gpioChips: GPIOChipDirectory {
    GPIOChipDirectory(environment: variables, standIn: gpioStandIn)
  }

  /// Where the serial ports are (`MORSETORCH_SERIAL_DIR`, with the kernel's tty class
  /// directory as its `sys-class-tty`; else /dev and /sys/class/tty).
  var serialPorts: SerialPortDirectory {
    let override = variables["MORSETORCH_SERIAL_DIR"] ?? ""
    guard !override.isEmpty else { return SerialPortDirectory() }
    return SerialPortDirectory(path: override, classPath: override + "/sys-class-tty")
  }

  /// The kernel's list of sound cards (`MORSETORCH_SOUND_CARDS`, else /proc/asound/cards).
  var soundCards: String {
    let override = variables["MORSETORCH_SOUND_CARDS"] ?? ""
    return override.isEmpty ? "/proc/asound/cards" : override
  }

  /// Where the cameras are (`MORSETORCH_VIDEO_DIR`, else /dev).
  var videoDevices: VideoDevices { VideoDevices(environment: variables) }
}
