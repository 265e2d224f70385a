/// The options of `stop` and `status`: each kind's (`--led`, `--gpio`), and help.
enum ControlOption: CommandOption {
  case device(DeviceKind)
  case help

  static var allCases: [ControlOption] { DeviceKind.allCases.map { .device($0) } + [.help] }

  var spec: OptionSpec {
    switch self {
    case .device(let kind): kind.home.controlOption
    case .help: .help
    }
  }
}

/// The devices `stop` or `status` was asked about.
struct ControlPlan: CommandPlan {
  /// The words given to each kind's option, as given.
  let asked: [DeviceKind: [String]]

  init(_ arguments: ParsedArguments<ControlOption>) throws {
    try arguments.checkNoOperands()
    var asked: [DeviceKind: [String]] = [:]
    for kind in DeviceKind.allCases {
      // An option whose value may be left out (`--sound`) names the kind's default device.
      let given = arguments.all(.device(kind))
      let words = given.isEmpty && arguments.has(.device(kind)) ? [""] : given
      try kind.home.check(controlWords: words)
      if !words.isEmpty { asked[kind] = words }
    }
    self.asked = asked
  }

  /// Whether every device with a lock is meant: no kind's option was given.
  var isEverything: Bool { asked.isEmpty }
}
