/// An option a command accepts.
struct OptionSpec: Sendable {
  /// The long name, without dashes: "wpm" for `--wpm`.
  let name: String
  /// The one-letter alias, if any: "h" for `-h`.
  let shortName: Character?
  /// The placeholder of its value ("N", "MS"), or nil for a flag.
  let valueName: String?
  /// One line for `--help`.
  let help: String
}
