import LEDDriver

/// `morsetorch list`: the LEDs, as a table.
enum ListCommand {
  static func run(_ words: [String], environment: [String: String]) throws -> Int32 {
    let arguments = try ParsedArguments(words, specs: Options.list, command: "list")
    if arguments.has("help") { return Morsetorch.printing(HelpText.list) }
    guard arguments.operands.isEmpty else {
      throw UsageError.unexpectedOperands(command: "list", arguments.operands)
    }
    let directory = LEDClassDirectory(environment: environment)
    let leds = try directory.list()
    guard !leds.isEmpty else {
      Console.error("no LEDs under \(directory.path)")
      return ExitStatus.success
    }
    LEDTable.lines(for: leds).forEach(Console.output)
    return ExitStatus.success
  }
}
