import GPIODriver

/// The options of `stop` and `status`.
enum ControlOption: CommandOption {
  case led, gpio, help

  var spec: OptionSpec {
    switch self {
    case .led:
      .value(
        "led", "NAME", completion: .leds, isRepeatable: true,
        help: "only this LED (default: every LED); repeatable"
      ).detailed("Or a shell-style pattern like '*::capslock'.")
    case .gpio:
      .value(
        "gpio", "CHIP:LINE", completion: .gpioChips, isRepeatable: true,
        help: "only this GPIO line; repeatable")
    case .help: .help
    }
  }
}

/// The devices `stop` or `status` was asked about.
struct ControlPlan: CommandPlan {
  /// The `--led` names and patterns, as given.
  let leds: [String]
  /// The `--gpio` lines.
  let lines: [GPIOLineAddress]

  init(_ arguments: ParsedArguments<ControlOption>) throws {
    try arguments.checkNoOperands()
    leds = arguments.all(.led)
    lines = try arguments.all(.gpio).map { try GPIOLineAddress($0) }
  }

  /// Whether every device with a lock is meant: neither `--led` nor `--gpio` was given.
  var isEverything: Bool { leds.isEmpty && lines.isEmpty }
}
