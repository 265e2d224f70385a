import MorseCore

/// `morsetorch decode`: dots and dashes to text.
enum DecodeCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try StringArguments(words, specs: Options.decode, command: "decode")
    Console.bufferOutput()
    if arguments.has("help") { return Morsetorch.printing(HelpText.decode) }
    let alphabet = try Self.alphabet(arguments.values["alphabet"])
    if let text = try textOperand(arguments.operands, command: "decode") {
      Console.output(try MorseDecoder.decode(text, alphabet: alphabet))
    } else {
      // A long line comes in pieces cut at a space: they go on the same output line.
      var isLineOpen = false
      // The line begun is ended whatever happens: an error on a later line included.
      defer { if isLineOpen { Console.write("\n") } }
      try InputLines.forEach { text, line, _, continuesLine in
        let decoded = try MorseDecoder.decode(text, line: line, alphabet: alphabet)
        Console.write((isLineOpen && !continuesLine ? "\n" : "") + decoded)
        isLineOpen = true
      }
    }
    return ExitStatus.success
  }

  /// The script `--alphabet` names (Latin when not given).
  static func alphabet(_ name: String?) throws(UsageError) -> NationalAlphabet {
    guard let name else { return .latin }
    guard let alphabet = NationalAlphabet(name: name) else {
      throw .invalidValue(
        option: "--alphabet", value: name, expected: "latin, cyrillic (or russian) or greek")
    }
    return alphabet
  }
}
