import MorseCore

/// The options of `decode`.
enum DecodeOption: CommandOption {
  case alphabet, help

  var spec: OptionSpec {
    switch self {
    case .alphabet: .alphabet
    case .help: .help
    }
  }
}

/// `morsetorch decode`: dots and dashes to text.
enum DecodeCommand {
  /// What `decode` was asked to do.
  struct Plan: CommandPlan {
    /// `--alphabet`: the script letters are read in.
    let alphabet: NationalAlphabet
    /// The code operands, or nil for standard input.
    let text: String?

    init(_ arguments: ParsedArguments<DecodeOption>) throws {
      alphabet = try DecodeCommand.alphabet(arguments.value(.alphabet))
      text = try textOperand(arguments.operands, command: arguments.command)
    }
  }

  static func run(_ words: [String]) throws -> Int32 {
    Console.bufferOutput()
    guard case .run(let plan) = try Invocation<Plan>(words, command: "decode") else {
      return Morsetorch.printing(HelpText.decode.text)
    }
    let alphabet = plan.alphabet
    // A code with no meaning is shown in the text as `receive` shows it ([......]), named on
    // standard error with its line and column, and makes the status 65: the rest is read.
    var unknownCodes = 0
    let report = { (error: MorseError) in
      unknownCodes += 1
      Console.error(failureReport(for: error).message)
    }
    if let text = plan.text {
      Console.output(MorseDecoder.decode(text, alphabet: alphabet, unknown: report))
    } else {
      // A long line comes in pieces: one stream decodes them, so a code or a word gap cut
      // between two is read as one, and they go on the same output line.
      var stream: MorseDecoder.Stream?
      var isLineOpen = false
      // The line begun is ended whatever happens: an error on a later line included.
      defer { if isLineOpen { Console.write("\n") } }
      try InputLines.forEach { text, line, _, piece in
        if isLineOpen && !piece.continuesLine { Console.write("\n") }
        var current = stream ?? MorseDecoder.Stream(line: line, alphabet: alphabet)
        // A whole line is shown at once (a stream shows each line as it comes).
        Console.write(
          current.decode(text, unknown: report)
            + (piece.endsLine ? current.finish(unknown: report) : ""))
        stream = piece.endsLine ? nil : current
        isLineOpen = true
      }
    }
    return unknownCodes == 0 ? ExitStatus.success : ExitStatus.dataError
  }

  /// The script `--alphabet` names (Latin when not given).
  static func alphabet(_ name: String?) throws(UsageError) -> NationalAlphabet {
    guard let name else { return .latin }
    guard let alphabet = NationalAlphabet(name: name) else {
      throw .invalidValue(
        option: OptionSpec.alphabet.flag, value: name,
        expected: "latin, cyrillic (or russian) or greek")
    }
    return alphabet
  }
}
