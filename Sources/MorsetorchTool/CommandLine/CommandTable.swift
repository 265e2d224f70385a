/// Every command, with what `--help`, the man page and the shell completions say of it: one
/// table, so that the three never disagree.
struct CommandEntry: Sendable {
  /// The command's name: `send`.
  let name: String
  /// Its line in the tool's usage list, after `morsetorch`: what it does.
  let summary: String
  /// Its `--help` and its section of the manual.
  let help: CommandHelp
  /// What its operands complete to in a shell, if anything.
  let operands: CompletionKind

  /// Its options, in the order `--help` lists them.
  var options: [OptionSpec] { help.options }
}

/// What a value or an operand completes to.
enum CompletionKind: Sendable, Hashable {
  /// Nothing to offer (free text, a number).
  case none
  /// The LEDs under /sys/class/leds.
  case leds
  /// The GPIO chips in /dev.
  case gpioChips
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
      name: "send", summary: "blink TEXT on an LED (no TEXT or \"-\": standard input)",
      help: HelpText.send, operands: .none),
    CommandEntry(
      name: "encode", summary: "print TEXT as dots and dashes", help: HelpText.encode,
      operands: .none),
    CommandEntry(
      name: "decode", summary: "print dots and dashes as text", help: HelpText.decode,
      operands: .none),
    CommandEntry(
      name: "receive", summary: "read Morse from a GPIO pin, a file of edges, a video or a camera",
      help: HelpText.receive, operands: .none),
    CommandEntry(
      name: "alphabet", summary: "show every character and prosign with its code",
      help: HelpText.alphabet, operands: .none),
    CommandEntry(
      name: "list", summary: "show the LEDs (or GPIO lines), whether you may use them",
      help: HelpText.list, operands: .none),
    CommandEntry(
      name: "status", summary: "show what is being sent, by whom, how far along",
      help: HelpText.status, operands: .none),
    CommandEntry(
      name: "stop", summary: "cancel what is being sent (and waiting)", help: HelpText.stop,
      operands: .none),
    CommandEntry(
      name: "help", summary: "show help for a command, or this manual as a man page",
      help: HelpText.help, operands: .commands),
  ]

  /// The command named `name`.
  static func command(_ name: String) -> CommandEntry? {
    commands.first { $0.name == name }
  }
}
