import GPIODriver
import ReceiveSources

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

  /// Where the cameras are (`MORSETORCH_VIDEO_DIR`, else /dev).
  var videoDevices: VideoDevices { VideoDevices(environment: variables) }
}
