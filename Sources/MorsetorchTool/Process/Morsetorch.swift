import MorseCore

/// The tool: one command line in, one exit status out.
enum Morsetorch {
  /// Runs one command line (without the program name) and returns the status to exit with.
  static func run(_ words: [String], environment: ProcessEnvironment) -> Int32 {
    do {
      let status = try dispatch(words, environment: environment)
      try Console.checkOutput()
      return status
    } catch {
      // What was made before the error goes out first.
      Console.flushOutput()
      let report = failureReport(for: error)
      if !report.message.isEmpty { Console.error(report.message) }
      return report.status
    }
  }

  private static func dispatch(_ words: [String], environment: ProcessEnvironment) throws -> Int32 {
    guard let command = words.first else { throw UsageError.missingCommand }
    let rest = Array(words.dropFirst())
    switch command {
    case "send": return try SendCommand.run(rest, environment: environment)
    case "receive": return try ReceiveCommand(rest, environment: environment).run()
    case "encode": return try EncodeCommand.run(rest)
    case "decode": return try DecodeCommand.run(rest)
    case "list": return try ListCommand.run(rest, environment: environment)
    case "alphabet": return try AlphabetCommand.run(rest)
    case "stop": return try StopCommand.run(rest, environment: environment)
    case "status": return try StatusCommand.run(rest, environment: environment)
    case "help": return try HelpCommand.run(rest)
    default:
      switch ToolOption(command) {
      case .help: return printing(HelpText.tool)
      case .version: return printing("morsetorch \(version)")
      case nil: break
      }
      if OptionWords.looksLikeOption(command) {
        throw UsageError.unknownOption(command, command: "morsetorch")
      }
      throw UsageError.unknownCommand(command)
    }
  }

  /// Prints `text` and returns success.
  static func printing(_ text: String) -> Int32 {
    Console.output(text)
    return ExitStatus.success
  }
}
