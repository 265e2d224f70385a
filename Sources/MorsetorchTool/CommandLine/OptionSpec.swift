/// What an option a command accepts looks like to a person and a shell: its names, its
/// value, its line of help, what its value completes to. Each command declares its options
/// as the cases of one enum (`SendOption`), each case with its `OptionSpec`.
struct OptionSpec: Sendable {
  /// Whether an option is a flag, or takes a value.
  enum Kind: Sendable, Equatable {
    /// `--dry-run`: given or not.
    case flag
    /// `--wpm N`: the placeholder its help shows ("N", "MS").
    case value(placeholder: String)
  }

  /// The long name, without dashes: "wpm" for `--wpm`.
  let name: String
  /// The one-letter alias, if any: "h" for `-h`.
  let shortName: Character?
  /// A flag, or a value with its placeholder.
  let kind: Kind
  /// Its line in `--help`: what it means, in at most 56 columns.
  let help: String
  /// What the manual says of it after that line (defaults, forms, limits), if anything.
  var details: String?
  /// What its value completes to in a shell.
  let completion: CompletionKind
  /// Whether the command uses every value given, not only the last.
  let isRepeatable: Bool
  /// Whether its value may be left out (`--camera` or `--camera /dev/video2`): then only a
  /// next word that is not an option is its value.
  var isValueOptional = false

  /// A flag.
  static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(
      name: name, shortName: short, kind: .flag, help: help, completion: .none,
      isRepeatable: false)
  }

  /// An option with a value, written `placeholder` in the help.
  static func value(
    _ name: String, _ placeholder: String, short: Character? = nil,
    completion: CompletionKind = .none, isRepeatable: Bool = false, help: String
  ) -> OptionSpec {
    OptionSpec(
      name: name, shortName: short, kind: .value(placeholder: placeholder), help: help,
      completion: completion, isRepeatable: isRepeatable)
  }

  /// An option whose value may be left out, written `[placeholder]` in the help.
  static func optionalValue(
    _ name: String, _ placeholder: String, completion: CompletionKind = .none, help: String
  ) -> OptionSpec {
    var spec = value(name, "[\(placeholder)]", completion: completion, help: help)
    spec.isValueOptional = true
    return spec
  }

  /// This option with `details`: what the manual adds to its line of help.
  func detailed(_ details: String) -> OptionSpec {
    var spec = self
    spec.details = details
    return spec
  }

  /// The placeholder of its value ("N", "MS"), or nil for a flag.
  var valueName: String? {
    guard case .value(let placeholder) = kind else { return nil }
    return placeholder
  }

  /// How it is written on a command line, and named in messages: `--wpm`.
  var flag: String { "--" + name }

  /// Whether `word` is this option written whole, by its long or its short name.
  func isWritten(as word: String) -> Bool {
    word == flag || shortName.map { word == "-\($0)" } == true
  }

  /// `-h, --help`, shared by every command.
  static let help = flag("help", short: "h", help: "show this help")
}

/// The options of one command, one case each: the only place an option is named. Every
/// command has `--help`.
protocol CommandOption: CaseIterable, Hashable, Sendable {
  /// `-h, --help`.
  static var help: Self { get }
  /// What the option is called, takes, says and completes to.
  var spec: OptionSpec { get }
}

extension CommandOption {
  /// Every option's spec, in the order `--help` lists them.
  static var specs: [OptionSpec] { allCases.map(\.spec) }

  /// How it is written and named in messages: `--wpm`.
  var flag: String { spec.flag }
}
