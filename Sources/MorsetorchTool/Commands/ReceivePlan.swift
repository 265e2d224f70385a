import GPIODriver
import MorseCore

/// The options of `receive`.
enum ReceiveOption: CommandOption {
  case gpio, edges, activeLow, bias, wpm, farnsworth, alphabet, timeout, help

  var spec: OptionSpec {
    switch self {
    case .gpio:
      .value(
        "gpio", "CHIP:LINE", completion: .gpioChips,
        help: "read a GPIO input line (a key, a light sensor): gpiochip0:4, LABEL:GPIO4")
    case .edges:
      .value(
        "edges", "FILE", completion: .files,
        help: "read edges from FILE (- for standard input): lines of SECONDS LEVEL")
    case .activeLow:
      .flag(
        "active-low",
        help: "with --gpio: key down (light on) is the low level, as for a key to ground")
    case .bias:
      .value(
        "bias", "BIAS", completion: GPIOChoice.biasCompletion,
        help: "with --gpio: pull-up, pull-down or disabled (a key to ground wants pull-up)")
    case .wpm:
      .value(
        "wpm", "N",
        help: "the speed to expect, 5-60 (default 15); the receiver follows the sender")
    case .farnsworth:
      .value(
        "farnsworth", "WPM",
        help: "the overall speed, if the sender stretches the gaps (Farnsworth)")
    case .alphabet: .alphabet
    case .timeout:
      .value(
        "timeout", "TIME",
        help: "stop after this long: 30s, 10m, 1h (default: until interrupted or the end)")
    case .help: .help
    }
  }
}

/// What `receive` was asked to do: where from, at what speed, for how long.
struct ReceivePlan: CommandPlan {
  /// Where the edges come from.
  enum Source {
    /// `--edges FILE`: lines of SECONDS LEVEL (`-`: standard input).
    case edges(path: String)
    /// `--gpio CHIP:LINE`, with `--active-low` and `--bias`.
    case gpio(GPIOLineAddress, isActiveLow: Bool, bias: GPIODevice.Bias?)
  }

  /// `--wpm`, `--farnsworth`, `--alphabet`.
  let settings: MorseReceiver.Settings
  /// `--timeout`: how long to listen at most.
  let timeout: Duration?
  /// `--edges` or `--gpio`.
  let source: Source

  init(_ arguments: ParsedArguments<ReceiveOption>) throws {
    try arguments.checkNoOperands()
    settings = try Self.settings(arguments)
    timeout = try Self.timeout(arguments.value(.timeout))
    let edgesPath = arguments.value(.edges)
    let line = try arguments.value(.gpio).map { try GPIOLineAddress($0) }
    switch (edgesPath, line) {
    case (nil, nil):
      throw UsageError.requiresOption("receive", requirement: "--gpio CHIP:LINE or --edges FILE")
    case (.some, .some):
      throw UsageError.conflictingOptions(ReceiveOption.gpio.flag, ReceiveOption.edges.flag)
    case (let path?, nil):
      for option in [ReceiveOption.activeLow, .bias] where arguments.has(option) {
        throw UsageError.requiresOption(option.flag, requirement: "--gpio CHIP:LINE")
      }
      source = .edges(path: path)
    case (nil, let line?):
      source = .gpio(
        line, isActiveLow: arguments.has(.activeLow),
        bias: try GPIOChoice.bias(arguments.value(.bias)))
    }
  }

  /// The receiver's settings: `--wpm`, `--farnsworth`, `--alphabet`.
  private static func settings(_ arguments: ParsedArguments<ReceiveOption>) throws
    -> MorseReceiver.Settings
  {
    var settings = MorseReceiver.Settings()
    if let wpm = try arguments.integer(.wpm) {
      guard (5...60).contains(wpm) else {
        throw UsageError.invalidValue(
          option: ReceiveOption.wpm.flag, value: String(wpm),
          expected: "a whole number from 5 to 60")
      }
      settings.wordsPerMinute = Double(wpm)
    }
    if let farnsworth = try arguments.integer(.farnsworth) {
      guard (1...60).contains(farnsworth) else {
        throw UsageError.invalidValue(
          option: ReceiveOption.farnsworth.flag, value: String(farnsworth),
          expected: "a whole number from 1 to 60"
        )
      }
      settings.farnsworthWPM = Double(farnsworth)
    }
    settings.alphabet = try DecodeCommand.alphabet(arguments.value(.alphabet))
    return settings
  }

  /// `--timeout TIME`: how long to listen at most.
  private static func timeout(_ text: String?) throws(UsageError) -> Duration? {
    guard let text else { return nil }
    guard let duration = DurationText.parse(text) else {
      throw .invalidValue(
        option: ReceiveOption.timeout.flag, value: text,
        expected: "a time like 500ms, 30s, 1.5s or 10m (up to 24h)")
    }
    return duration
  }
}
