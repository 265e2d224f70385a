/// A command line checked against a command's options, ready to run: every usage error is
/// thrown while it is made, before anything is touched (swift-argument-parser's `validate`).
protocol CommandPlan {
  associatedtype Option: CommandOption
  /// Reads and checks the options and operands given.
  init(_ arguments: ParsedArguments<Option>) throws
}

/// What a command line asks a command to do: show its help, or carry out a plan.
enum Invocation<Plan: CommandPlan> {
  case help
  case run(Plan)

  /// Reads `words` as the options of `command`; `--help` wins over anything else given
  /// but an unknown option.
  init(_ words: [String], command: String) throws {
    let arguments = try ParsedArguments<Plan.Option>(words, command: command)
    self = arguments.has(.help) ? .help : .run(try Plan(arguments))
  }
}
