import MorseCore

/// `morsetorch decode`: dots and dashes to text.
enum DecodeCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try ParsedArguments(words, specs: Options.decode, command: "decode")
    if arguments.has("help") { return Morsetorch.printing(HelpText.decode) }
    if let text = try textOperand(arguments.operands, command: "decode") {
      Console.output(try MorseDecoder.decode(text))
    } else {
      try InputLines.forEach { text, line in
        Console.output(try MorseDecoder.decode(text, line: line))
      }
    }
    return ExitStatus.success
  }
}
