import MorseCore

/// The options of `encode`.
enum EncodeOption: CommandOption {
  case skipUnknown, help

  var spec: OptionSpec {
    switch self {
    case .skipUnknown: .skipUnknown
    case .help: .help
    }
  }
}

/// `morsetorch encode`: text to dots and dashes.
enum EncodeCommand {
  /// What `encode` was asked to do.
  struct Plan: CommandPlan {
    /// `--skip-unknown`: drop what has no Morse signal, or fail on it.
    let policy: UnknownCharacterPolicy
    /// The text operands, or nil for standard input.
    let text: String?

    init(_ arguments: ParsedArguments<EncodeOption>) throws {
      policy = arguments.has(.skipUnknown) ? .skip : .reject
      text = try textOperand(arguments.operands, command: arguments.command)
    }
  }

  static func run(_ words: [String]) throws -> Int32 {
    Console.bufferOutput()
    guard case .run(let plan) = try Invocation<Plan>(words, command: "encode") else {
      return Morsetorch.printing(HelpText.encode.text)
    }
    let policy = plan.policy
    // Standard input is a stream, as for `send`: each kind of skipped character is said once.
    let stream = SkippedCharacters()
    func encode(_ text: String, line: Int, column: Int = 1) throws -> String {
      let message = try MorseMessage(
        text, firstLine: line, firstColumn: column, unknownCharacters: policy, encoding: true)
      if plan.text == nil {
        stream.transmission(willSendLine: message, number: line)
      } else {
        SkippedCharacters.warn(about: message)
      }
      return message.encoded
    }
    if let text = plan.text {
      Console.output(try encode(text, line: 1))
      return ExitStatus.success
    }
    // A long line comes in pieces cut at a space (or inside a word with none): its words go
    // on the same output line, a broken word's letters after a letter's separator.
    var isLineOpen = false
    var isWordBroken = false
    // The line begun is ended whatever happens: an error on a later line included.
    defer { if isLineOpen { Console.write("\n") } }
    try InputLines.forEach(repairing: policy == .skip) { text, line, column, piece in
      let encoded = try encode(text, line: line, column: column)
      if piece.continuesLine {
        Console.write(encoded.isEmpty ? "" : (isWordBroken ? " " : " / ") + encoded)
      } else {
        Console.write((isLineOpen ? "\n" : "") + encoded)
      }
      isWordBroken = piece.breaksWord
      isLineOpen = true
    }
    return ExitStatus.success
  }
}
