import MorseCore

/// `morsetorch encode`: text to dots and dashes.
enum EncodeCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try StringArguments(words, specs: Options.encode, command: "encode")
    Console.bufferOutput()
    if arguments.has("help") { return Morsetorch.printing(HelpText.encode) }
    let policy: UnknownCharacterPolicy = arguments.has("skip-unknown") ? .skip : .reject
    func encode(_ text: String, line: Int, column: Int = 1) throws -> String {
      let message = try MorseMessage(
        text, firstLine: line, firstColumn: column, unknownCharacters: policy, encoding: true)
      SkippedCharacters.warn(about: message)
      return message.encoded
    }
    if let text = try textOperand(arguments.operands, command: "encode") {
      Console.output(try encode(text, line: 1))
      return ExitStatus.success
    }
    // A long line comes in pieces cut at a space: its words go on the same output line.
    var isLineOpen = false
    // The line begun is ended whatever happens: an error on a later line included.
    defer { if isLineOpen { Console.write("\n") } }
    try InputLines.forEach(repairing: policy == .skip) { text, line, column, continuesLine in
      let encoded = try encode(text, line: line, column: column)
      if continuesLine {
        Console.write(encoded.isEmpty ? "" : " / " + encoded)
      } else {
        Console.write((isLineOpen ? "\n" : "") + encoded)
      }
      isLineOpen = true
    }
    return ExitStatus.success
  }
}
