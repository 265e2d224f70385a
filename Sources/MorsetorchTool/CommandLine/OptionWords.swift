/// How the words of a command line are told apart and read, whatever the command.
enum OptionWords {
  /// Whether `word` is `-x` or `--name`: a dash or two, then a letter.
  static func looksLikeOption(_ word: String) -> Bool {
    let name = word.hasPrefix("--") ? word.dropFirst(2) : word.dropFirst()
    guard word.hasPrefix("-"), let first = name.first else { return false }
    return first.isASCII && first.isLetter
  }

  /// The number `text` is when it is nothing but ASCII decimal digits (no sign, space,
  /// underscore or base prefix, which `Int(_:)` would take in part); nil otherwise, or when
  /// it does not fit an `Int`. The one way an option's number is read.
  static func wholeNumber(_ text: some StringProtocol) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
      return nil
    }
    return Int(text)
  }
}
