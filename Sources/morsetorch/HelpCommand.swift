/// `morsetorch help [COMMAND | --man | --completions SHELL]`.
enum HelpCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try StringArguments(words, specs: Options.helpCommand, command: "help")
    if arguments.has("help") { return Morsetorch.printing(HelpText.help) }
    let shell = arguments.values["completions"]
    if arguments.has("man") && shell != nil {
      throw UsageError.conflictingOptions("--man", "--completions")
    }
    if arguments.has("man") || shell != nil {
      guard arguments.operands.isEmpty else {
        throw UsageError.unexpectedOperands(command: "help", arguments.operands)
      }
    }
    if arguments.has("man") { return Morsetorch.printing(ManPage.text) }
    if let shell {
      guard let script = Completions.script(for: shell) else {
        throw UsageError.invalidValue(
          option: "--completions", value: shell, expected: "bash, zsh or fish")
      }
      return Morsetorch.printing(script)
    }
    guard arguments.operands.count <= 1 else {
      throw UsageError.unexpectedOperands(command: "help", Array(arguments.operands.dropFirst()))
    }
    guard let topic = arguments.operands.first else { return Morsetorch.printing(HelpText.tool) }
    guard let text = HelpText.forCommand(topic) else { throw UsageError.unknownCommand(topic) }
    return Morsetorch.printing(text)
  }
}
