/// The options of `help`.
enum HelpOption: CommandOption {
  case man, completions, help

  var spec: OptionSpec {
    switch self {
    case .man:
      .flag("man", help: "print the manual as a man page (roff)")
        .detailed("Read it with morsetorch help --man | man -l -.")
    case .completions:
      .value(
        "completions", "SHELL", completion: .words(["bash", "zsh", "fish"]),
        help: "print the completion script for bash, zsh or fish")
    case .help: .help
    }
  }
}

/// `morsetorch help [COMMAND | --man | --completions SHELL]`.
enum HelpCommand {
  /// What `help` was asked to print.
  struct Plan: CommandPlan {
    /// The help of the tool or a command, the manual, or a completion script.
    let text: String

    init(_ arguments: ParsedArguments<HelpOption>) throws {
      let shell = arguments.value(.completions)
      let isManual = arguments.has(.man)
      if isManual && shell != nil {
        throw UsageError.conflictingOptions(HelpOption.man.flag, HelpOption.completions.flag)
      }
      if isManual || shell != nil { try arguments.checkNoOperands() }
      if isManual {
        text = ManPage.text
      } else if let shell {
        guard let script = Completions.script(for: shell) else {
          throw UsageError.invalidValue(
            option: HelpOption.completions.flag, value: shell, expected: "bash, zsh or fish")
        }
        text = script
      } else {
        text = try Self.help(arguments.operands)
      }
    }

    /// The help of the command `operands` name, or of the tool when they name none.
    private static func help(_ operands: [String]) throws(UsageError) -> String {
      guard operands.count <= 1 else {
        throw .unexpectedOperands(command: "help", Array(operands.dropFirst()))
      }
      guard let topic = operands.first else { return HelpText.tool }
      guard let text = HelpText.forCommand(topic) else { throw .unknownCommand(topic) }
      return text
    }
  }

  static func run(_ words: [String]) throws -> Int32 {
    guard case .run(let plan) = try Invocation<Plan>(words, command: "help") else {
      return Morsetorch.printing(HelpText.help.text)
    }
    return Morsetorch.printing(plan.text)
  }
}
