/// Every command, with what `--help`, the man page and the shell completions say of it: one
/// table, so that the three never disagree.
struct CommandEntry: Sendable {
  /// The command's name: `send`.
  let name: String
  /// What it does, in a line: in the tool's usage list, the manual's list of commands and
  /// the shell completions.
  let summary: String
  /// Its `--help` and its section of the manual, made when asked: running a command (which
  /// looks it up here) builds no help text. Built with the table, every help text cost
  /// `send` and `receive` 24 to 32 kB of private memory (Tests/VM/peak-memory.sh: send 364,
  /// receive 516-520 kB; made when asked, 340 and 488-496).
  let makeHelp: @Sendable () -> CommandHelp
  /// What its operands complete to in a shell, if anything.
  let operands: CompletionKind
  /// Runs it on the words after its name: the status to exit with.
  let run: @Sendable (_ words: [String], _ environment: ProcessEnvironment) throws -> Int32

  /// Its `--help` and its section of the manual.
  var help: CommandHelp { makeHelp() }

  /// Its options, in the order `--help` lists them.
  var options: [OptionSpec] { help.options }
}

/// What a value or an operand completes to.
enum CompletionKind: Sendable, Hashable {
  /// Nothing to offer (free text, a number).
  case none
  /// The devices of a kind (the LEDs under /sys/class/leds, the GPIO chips in /dev), as its
  /// home's completion finds them.
  case devices(DeviceKind)
  /// A file name.
  case files
  /// One of these words.
  case words([String])
  /// A command name.
  case commands
}

enum CommandTable {
  static let commands: [CommandEntry] = [
    CommandEntry(
      name: "send",
      summary: "blink TEXT on an LED, or standard input",
      makeHelp: { HelpText.send }, operands: .none,
      run: { try SendCommand.run($0, environment: $1) }),
    CommandEntry(
      name: "encode",
      summary: "print TEXT as dots and dashes",
      makeHelp: { HelpText.encode }, operands: .none,
      run: { words, _ in try EncodeCommand.run(words) }),
    CommandEntry(
      name: "decode",
      summary: "print dots and dashes as text",
      makeHelp: { HelpText.decode }, operands: .none,
      run: { words, _ in try DecodeCommand.run(words) }),
    CommandEntry(
      name: "receive",
      summary: "read Morse from \(SourceOption.phrases)",
      makeHelp: { HelpText.receive }, operands: .none,
      run: { try ReceiveCommand($0, environment: $1).run() }),
    CommandEntry(
      name: "alphabet",
      summary: "show each character and prosign with its code",
      makeHelp: { HelpText.alphabet }, operands: .none,
      run: { words, _ in try AlphabetCommand.run(words) }),
    CommandEntry(
      name: "list",
      summary: "show LEDs, GPIO lines or serial ports, and your access",
      makeHelp: { HelpText.list }, operands: .none,
      run: { try ListCommand.run($0, environment: $1) }),
    CommandEntry(
      name: "status",
      summary: "show who sends what, how far along",
      makeHelp: { HelpText.status }, operands: .none,
      run: { try StatusCommand.run($0, environment: $1) }),
    CommandEntry(
      name: "stop",
      summary: "cancel what is being sent (and waiting)",
      makeHelp: { HelpText.stop }, operands: .none,
      run: { try StopCommand.run($0, environment: $1) }),
    CommandEntry(
      name: "cwdaemon",
      summary: "key cwdaemon's network requests (tlf, other loggers)",
      makeHelp: { HelpText.cwdaemon }, operands: .none,
      run: { try CWDaemonCommand.run($0, environment: $1) }),
    CommandEntry(
      name: "help",
      summary: "help for a command (--man: the manual)",
      makeHelp: { HelpText.help }, operands: .commands,
      run: { words, _ in try HelpCommand.run(words) }),
  ]

  /// The command named `name`.
  static func command(_ name: String) -> CommandEntry? {
    commands.first { $0.name == name }
  }
}
