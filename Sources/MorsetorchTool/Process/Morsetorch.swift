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
    if let entry = CommandTable.command(command) { return try entry.run(rest, environment) }
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

  /// Prints `text` and returns success.
  static func printing(_ text: String) -> Int32 {
    Console.output(text)
    return ExitStatus.success
  }
}
