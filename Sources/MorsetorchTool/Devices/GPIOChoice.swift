import GPIODriver

/// `--gpio CHIP:LINE` (repeatable), with `--active-low` and `--bias`: the GPIO lines to send
/// on instead of LEDs.
struct GPIOChoice {
  /// The lines as written.
  let addresses: [GPIOLineAddress]
  /// Whether active is the low level.
  let isActiveLow: Bool
  /// The bias asked for.
  let bias: GPIODevice.Bias?

  /// Nil when no `--gpio` was given; usage errors for options that do not go with it.
  init?(_ arguments: ParsedArguments<SendOption>) throws {
    let texts = arguments.all(.gpio)
    guard !texts.isEmpty else {
      for option in [SendOption.activeLow, .bias] where arguments.has(option) {
        throw UsageError.requiresOption(option.flag, requirement: "--gpio CHIP:LINE")
      }
      return nil
    }
    for other in [SendOption.led, .brightness, .preview] where arguments.has(other) {
      throw UsageError.conflictingOptions(SendOption.gpio.flag, other.flag)
    }
    try DeviceNames.checkLimit(texts.count, devices: "GPIO lines", option: SendOption.gpio.flag)
    addresses = try texts.map { try GPIOLineAddress($0) }
    isActiveLow = arguments.has(.activeLow)
    bias = try Self.bias(arguments.value(.bias))
  }

  /// What `--bias` completes to.
  static let biasCompletion = CompletionKind.words(GPIODevice.Bias.allCases.map(\.rawValue))

  /// The bias `--bias` names, if given.
  static func bias(_ text: String?) throws(UsageError) -> GPIODevice.Bias? {
    guard let text else { return nil }
    guard let bias = GPIODevice.Bias(rawValue: text) else {
      throw .invalidValue(option: "--bias", value: text, expected: "pull-up, pull-down or disabled")
    }
    return bias
  }

  /// The lines, found on the chips of the GPIO directory.
  func devices(environment: ProcessEnvironment) throws -> [GPIODevice] {
    let directory = environment.gpioChips
    return try addresses.map { address in
      GPIODevice(line: try directory.line(address), isActiveLow: isActiveLow, bias: bias)
    }
  }
}
