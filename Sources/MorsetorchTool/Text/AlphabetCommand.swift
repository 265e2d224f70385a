import MorseCore

/// The options of `alphabet`.
enum AlphabetOption: CommandOption {
  case help

  var spec: OptionSpec { .help }
}

/// `morsetorch alphabet`: every character and prosign morsetorch sends, with its code.
enum AlphabetCommand {
  /// `alphabet` takes nothing but `--help`.
  struct Plan: CommandPlan {
    init(_ arguments: ParsedArguments<AlphabetOption>) throws {
      try arguments.checkNoOperands()
    }
  }

  static func run(_ words: [String]) throws -> Int32 {
    guard case .run = try Invocation<Plan>(words, command: "alphabet") else {
      return Morsetorch.printing(HelpText.alphabet.text)
    }
    lines().forEach(Console.output)
    return ExitStatus.success
  }

  /// The table: one section per set, a character and its code per line.
  static func lines() -> [String] {
    var lines = ["International (ITU-R M.1677-1):"]
    lines += MorseAlphabet.internationalEntries.map { row(String($0.character), $0.code) }
    lines += [
      "",
      "Extensions (not ITU; a code shared with an ITU signal decodes as the signal, else as "
        + "the first of these):",
    ]
    lines += MorseAlphabet.extendedEntries.map { row(String($0.character), $0.code) }
    lines += ["", "Sent as other signals (ITU-R M.1677-1 §3, and for logs and shells):"]
    lines += MorseAlphabet.substitutions.sorted { $0.key < $1.key }.map { character, spelling in
      "  " + padded(String(character)) + "as " + spelling
    }
    for alphabet in [NationalAlphabet.cyrillic, .greek] {
      lines += [
        "",
        "\(alphabet.rawValue.prefix(1).uppercased() + alphabet.rawValue.dropFirst()) "
          + "(read back with decode --alphabet "
          + "\(alphabet.rawValue)):",
      ]
      lines += alphabet.entries.map { row(String($0.character), $0.code) }
    }
    lines += ["", "Prosigns (write them in angle brackets; any letters may be joined):"]
    lines += MorseAlphabet.prosignEntries.map { row("<\($0.name)>", $0.code) }
    return lines
  }

  private static func row(_ text: String, _ code: MorseCode) -> String {
    "  " + padded(text) + code.description
  }

  private static func padded(_ text: String) -> String {
    text + String(repeating: " ", count: max(1, 7 - text.count))
  }
}
