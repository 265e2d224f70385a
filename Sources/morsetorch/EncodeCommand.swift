import MorseCore

/// `morsetorch encode`: text to dots and dashes.
enum EncodeCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try ParsedArguments(words, specs: Options.encode, command: "encode")
    if arguments.has("help") { return Morsetorch.printing(HelpText.encode) }
    let policy: UnknownCharacterPolicy = arguments.has("skip-unknown") ? .skip : .reject
    func encode(_ text: String, line: Int) throws {
      let message = try MorseMessage(text, firstLine: line, unknownCharacters: policy)
      SkippedCharacters.warn(about: message)
      Console.output(message.encoded)
    }
    if let text = try textOperand(arguments.operands, command: "encode") {
      try encode(text, line: 1)
    } else {
      try InputLines.forEach(repairing: policy == .skip) { text, line in
        try encode(text, line: line)
      }
    }
    return ExitStatus.success
  }
}
