import Glibc
import MorseCore

/// Writes to the terminal: results to standard output, messages to standard error.
enum Console {
  /// Prints `line` to standard output; a closed pipe (`| head`) ends the program quietly.
  static func output(_ line: String) {
    guard StandardStreams.write(line + "\n", to: .output) else { exit(ExitStatus.success) }
  }

  /// Prints "morsetorch: " and `message` to standard error.
  static func error(_ message: String) {
    StandardStreams.write("morsetorch: \(message)\n", to: .error)
  }

  /// Whether standard error is a terminal (someone is watching).
  static var isErrorTerminal: Bool { StandardStreams.isTerminal(.error) }
}

/// Runs one command line and returns the status to exit with.
func runCommandLine(_ words: [String], environment: [String: String]) -> Int32 {
  do {
    return try dispatch(words, environment: environment)
  } catch {
    let report = failureReport(for: error)
    Console.error(report.message)
    return report.status
  }
}

private func dispatch(_ words: [String], environment: [String: String]) throws -> Int32 {
  guard let command = words.first else { throw UsageError.missingCommand }
  let rest = Array(words.dropFirst())
  switch command {
  case "send": return try SendCommand(rest, environment: environment).run()
  case "encode": return try runEncode(rest)
  case "decode": return try runDecode(rest)
  case "list": return try runList(rest, environment: environment)
  case "stop": return try runStop(rest, environment: environment)
  case "status": return try runStatus(rest, environment: environment)
  case "help":
    guard let topic = rest.first else {
      Console.output(HelpText.tool)
      return ExitStatus.success
    }
    guard let text = HelpText.forCommand(topic) else { throw UsageError.unknownCommand(topic) }
    Console.output(text)
    return ExitStatus.success
  case "-h", "--help":
    Console.output(HelpText.tool)
    return ExitStatus.success
  case "--version":
    Console.output("morsetorch \(version)")
    return ExitStatus.success
  default:
    if ParsedArguments.looksLikeOption(command) {
      throw UsageError.unknownOption(command, command: "morsetorch")
    }
    throw UsageError.unknownCommand(command)
  }
}

/// The text operands joined by spaces, or nil for standard input (none, or a lone "-").
func textOperand(_ operands: [String], command: String) throws(UsageError) -> String? {
  guard !operands.isEmpty, operands != ["-"] else { return nil }
  let text = operands.joined(separator: " ")
  guard text.contains(where: { !$0.isWhitespace }) else { throw .emptyText(command: command) }
  return text
}

private func runEncode(_ words: [String]) throws -> Int32 {
  let arguments = try ParsedArguments(words, specs: Options.encode, command: "encode")
  if arguments.has("help") {
    Console.output(HelpText.encode)
    return ExitStatus.success
  }
  let policy: UnknownCharacterPolicy = arguments.has("skip-unknown") ? .skip : .reject
  func encode(_ text: String, line: Int) throws {
    let message = try MorseMessage(text, firstLine: line, unknownCharacters: policy)
    Transmitter.warnings(for: message).forEach { Console.error("warning: \($0)") }
    Console.output(message.encoded)
  }
  if let text = try textOperand(arguments.operands, command: "encode") {
    try encode(text, line: 1)
  } else {
    try forEachInputLine { text, line in try encode(text, line: line) }
  }
  return ExitStatus.success
}

private func runDecode(_ words: [String]) throws -> Int32 {
  let arguments = try ParsedArguments(words, specs: Options.decode, command: "decode")
  if arguments.has("help") {
    Console.output(HelpText.decode)
    return ExitStatus.success
  }
  if let text = try textOperand(arguments.operands, command: "decode") {
    Console.output(try MorseDecoder.decode(text))
  } else {
    try forEachInputLine { text, line in Console.output(try MorseDecoder.decode(text, line: line)) }
  }
  return ExitStatus.success
}

private func runList(_ words: [String], environment: [String: String]) throws -> Int32 {
  let arguments = try ParsedArguments(words, specs: Options.list, command: "list")
  if arguments.has("help") {
    Console.output(HelpText.list)
    return ExitStatus.success
  }
  guard arguments.operands.isEmpty else {
    throw UsageError.unexpectedOperands(command: "list", arguments.operands)
  }
  let directory = LEDClassDirectory(environment: environment)
  let leds = try directory.list()
  guard !leds.isEmpty else {
    Console.error("no LEDs under \(directory.path)")
    return ExitStatus.success
  }
  LEDTable.lines(for: leds).forEach(Console.output)
  return ExitStatus.success
}

/// Reads standard input line by line (streaming), decoding each line as strict UTF-8.
private func forEachInputLine(_ body: (String, Int) throws -> Void) throws {
  let source = StreamLineSource()
  var line = 0
  while let bytes = try source.nextLine() {
    line += 1
    try body(try UTF8Lines.decode(bytes, line: line), line)
  }
}
