import GPIODriver
import LEDDriver

/// The options of `list`: each kind's but the default's (listed without one), and help.
enum ListOption: CommandOption {
  case device(DeviceKind)
  case help

  static var allCases: [ListOption] {
    DeviceKind.allCases.filter { $0.home.listOption != nil }.map { .device($0) } + [.help]
  }

  var spec: OptionSpec {
    switch self {
    case .device(let kind): kind.home.listOption ?? .help
    case .help: .help
    }
  }
}

/// `morsetorch list`: the devices of one kind, as a table, with your access to each.
enum ListCommand {
  /// What `list` was asked to show.
  struct Plan: CommandPlan {
    /// The kind listed: the one whose option was given, else the default.
    let kind: DeviceKind

    init(_ arguments: ParsedArguments<ListOption>) throws {
      try arguments.checkNoOperands()
      let asked = DeviceKind.allCases.filter { arguments.has(.device($0)) }
      if asked.count > 1 {
        throw UsageError.conflictingOptions(
          ListOption.device(asked[0]).flag, ListOption.device(asked[1]).flag)
      }
      kind = asked.first ?? .default
    }
  }

  static func run(_ words: [String], environment: ProcessEnvironment) throws -> Int32 {
    guard case .run(let plan) = try Invocation<Plan>(words, command: "list") else {
      return Morsetorch.printing(HelpText.list.text)
    }
    return try plan.kind.home.list(environment: environment)
  }
}
