import GPIODriver
import LEDDriver

/// `morsetorch list`: the LEDs, as a table.
enum ListCommand {
  static func run(_ words: [String], environment: [String: String]) throws -> Int32 {
    let arguments = try StringArguments(words, specs: Options.list, command: "list")
    if arguments.has("help") { return Morsetorch.printing(HelpText.list) }
    guard arguments.operands.isEmpty else {
      throw UsageError.unexpectedOperands(command: "list", arguments.operands)
    }
    if arguments.has("gpio") { return listGPIO(environment: environment) }
    let directory = LEDClassDirectory(environment: environment)
    let leds = try directory.list()
    guard !leds.isEmpty else {
      Console.error("no LEDs under \(directory.path)")
      return ExitStatus.success
    }
    LEDTable.lines(for: leds).forEach(Console.output)
    return ExitStatus.success
  }

  /// `list --gpio`: every chip and line; a chip that cannot be read is reported, and its
  /// error decides the exit status.
  private static func listGPIO(environment: [String: String]) -> Int32 {
    let directory = GPIOChipDirectory(environment: environment)
    let (chips, unreadable) = directory.list()
    if chips.isEmpty && unreadable.isEmpty {
      Console.error("no GPIO chips under \(directory.path)")
      return ExitStatus.success
    }
    GPIOTable.lines(for: chips).forEach(Console.output)
    let reports = unreadable.map { failureReport(for: $0) }
    reports.forEach { Console.error($0.message) }
    return reports.first?.status ?? ExitStatus.success
  }
}
