import DeviceContract
import GPIODriver

/// `--gpio CHIP:LINE` (repeatable), with `--active-low` and `--bias`: the GPIO lines to send
/// on instead of LEDs.
struct GPIOChoice: SendChoice {
  /// The lines as written.
  let addresses: [GPIOLineAddress]
  /// Whether active is the low level.
  let isActiveLow: Bool
  /// The bias asked for.
  let bias: GPIODevice.Bias?

  var words: [String] { addresses.map(\.description) }

  /// The lines `--gpio` names, with `--active-low` and `--bias`; usage errors for too many,
  /// or words that are no line.
  init(_ arguments: ParsedArguments<SendOption>) throws {
    let texts = arguments.all(.gpio)
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
  func devices(environment: ProcessEnvironment) throws -> [any TorchDevice]? {
    let directory = environment.gpioChips
    return try addresses.map { address in
      GPIODevice(line: try directory.line(address), isActiveLow: isActiveLow, bias: bias)
    }
  }
}
