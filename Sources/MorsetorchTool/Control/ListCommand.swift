import GPIODriver
import LEDDriver

/// The options of `list`.
enum ListOption: CommandOption {
  case gpio, help

  var spec: OptionSpec {
    switch self {
    case .gpio: .flag("gpio", help: "list the GPIO chips and their lines instead of the LEDs")
    case .help: .help
    }
  }
}

/// `morsetorch list`: the LEDs, as a table.
enum ListCommand {
  /// What `list` was asked to show.
  struct Plan: CommandPlan {
    /// `--gpio`: the GPIO chips and lines instead of the LEDs.
    let showsGPIO: Bool

    init(_ arguments: ParsedArguments<ListOption>) throws {
      try arguments.checkNoOperands()
      showsGPIO = arguments.has(.gpio)
    }
  }

  static func run(_ words: [String], environment: ProcessEnvironment) throws -> Int32 {
    guard case .run(let plan) = try Invocation<Plan>(words, command: "list") else {
      return Morsetorch.printing(HelpText.list.text)
    }
    if plan.showsGPIO { return listGPIO(environment: environment) }
    let directory = LEDClassDirectory(environment: environment.variables)
    let leds: [LEDInfo]
    do {
      leds = try directory.list()
    } catch {
      guard error.isNoLED else { throw error }
      throw HintedError(error: error, hint: tryWithoutLED)
    }
    guard !leds.isEmpty else {
      // As with no class directory at all, and as `list --gpio` with no chip: nothing to use.
      Console.error("no LEDs under \(directory.path)\n" + tryWithoutLED)
      return ExitStatus.unavailable
    }
    LEDTable.lines(for: leds).forEach(Console.output)
    return ExitStatus.success
  }

  /// Where there is no LED: the ways to try the tool all the same.
  static let tryWithoutLED =
    "Without an LED, `morsetorch send --preview SOS` shows the light in this terminal and "
    + "`morsetorch send --dry-run SOS` prints its timeline; `morsetorch list --gpio` shows "
    + "the GPIO lines."

  /// `list --gpio`: every chip and line; a chip that cannot be read is reported, and its
  /// error decides the exit status.
  private static func listGPIO(environment: ProcessEnvironment) -> Int32 {
    let directory = environment.gpioChips
    let (chips, unreadable) = directory.list()
    if chips.isEmpty && unreadable.isEmpty {
      Console.error("no GPIO chips under \(directory.path)")
      return ExitStatus.unavailable
    }
    GPIOTable.lines(for: chips).forEach(Console.output)
    let reports = unreadable.map { failureReport(for: $0) }
    reports.forEach { Console.error($0.message) }
    return reports.first?.status ?? ExitStatus.success
  }
}
