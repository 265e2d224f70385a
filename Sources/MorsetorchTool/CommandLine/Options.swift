/// The options more than one command has, declared once.
extension OptionSpec {
  /// `--skip-unknown` of `send` and `encode`.
  static let skipUnknown = flag(
    "skip-unknown",
    help: "drop the characters of TEXT that have no Morse signal"
  ).detailed(
    "With a warning, instead of failing; send's standard input, a stream, always skips\n"
      + "them, with one warning for each kind of character.")

  /// `--alphabet NAME` of `decode` and `receive`.
  static let alphabet = value(
    "alphabet", "NAME", completion: .words(["latin", "cyrillic", "russian", "greek"]),
    help: "read letters as latin (default), cyrillic or greek"
  ).detailed("russian is the same as cyrillic.")
}

/// The options of the tool itself, before any command.
enum ToolOption: CommandOption {
  case help, version

  var spec: OptionSpec {
    switch self {
    case .help: .help
    case .version: .flag("version", help: "print the version")
    }
  }

  /// The option `word` is, written whole (`--help`, `-h`), if it is one.
  init?(_ word: String) {
    guard let option = Self.allCases.first(where: { $0.spec.isWritten(as: word) }) else {
      return nil
    }
    self = option
  }
}
