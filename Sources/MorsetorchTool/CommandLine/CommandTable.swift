/// Every command, with what `--help`, the man page and the shell completions say of it: one
/// table, so that the three never disagree.
struct CommandEntry: Sendable {
  /// The command's name: `send`.
  let name: String
  /// What it does, in a line: in the tool's usage list, the manual's list of commands and
  /// the shell completions.
  let summary: String
  /// Its `--help` and its section of the manual.
  let help: CommandHelp
  /// What its operands complete to in a shell, if anything.
  let operands: CompletionKind
  /// Runs it on the words after its name: the status to exit with.
  let run: @Sendable (_ words: [String], _ environment: ProcessEnvironment) throws -> Int32

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
      help: HelpText.send, operands: .none,
      run: { try SendCommand.run($0, environment: $1) }),
    CommandEntry(
      name: "encode",
      summary: "print TEXT as dots and dashes",
      help: HelpText.encode, operands: .none,
      run: { words, _ in try EncodeCommand.run(words) }),
    CommandEntry(
      name: "decode",
      summary: "print dots and dashes as text",
      help: HelpText.decode, operands: .none,
      run: { words, _ in try DecodeCommand.run(words) }),
    CommandEntry(
      name: "receive",
      summary: "read Morse from \(SourceOption.phrases)",
      help: HelpText.receive, operands: .none,
      run: { try ReceiveCommand($0, environment: $1).run() }),
    CommandEntry(
      name: "alphabet",
      summary: "show each character and prosign with its code",
      help: HelpText.alphabet, operands: .none,
      run: { words, _ in try AlphabetCommand.run(words) }),
    CommandEntry(
      name: "list",
      summary: "show LEDs or GPIO lines and your access",
      help: HelpText.list, operands: .none,
      run: { try ListCommand.run($0, environment: $1) }),
    CommandEntry(
      name: "status",
      summary: "show who sends what, how far along",
      help: HelpText.status, operands: .none,
      run: { try StatusCommand.run($0, environment: $1) }),
    CommandEntry(
      name: "stop",
      summary: "cancel what is being sent (and waiting)",
      help: HelpText.stop, operands: .none,
      run: { try StopCommand.run($0, environment: $1) }),
    CommandEntry(
      name: "help",
      summary: "help for a command (--man: the manual)",
      help: HelpText.help, operands: .commands,
      run: { words, _ in try HelpCommand.run(words) }),
  ]

  /// The command named `name`.
  static func command(_ name: String) -> CommandEntry? {
    commands.first { $0.name == name }
  }
}
