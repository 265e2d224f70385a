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

/// The words of a command line, sorted into options, flags and operands.
struct ParsedArguments: Equatable {
  /// The value of every option given (the last one wins when repeated).
  var values: [String: String] = [:]
  /// The flags given.
  var flags: Set<String> = []
  /// Everything else, in order.
  var operands: [String] = []

  /// Sorts `words` by `specs`: `--name value`, `--name=value`, `-h`, and `--` ending options.
  ///
  /// Only a dash followed by a letter starts an option, so Morse code such as `-.-.` or `---`
  /// and a lone `-` (standard input) are operands.
  init(_ words: [String], specs: [OptionSpec], command: String) throws(UsageError) {
    var index = 0
    var optionsEnded = false
    while index < words.count {
      let word = words[index]
      index += 1
      if !optionsEnded && word == "--" {
        optionsEnded = true
        continue
      }
      if optionsEnded || !Self.looksLikeOption(word) {
        operands.append(word)
        continue
      }
      var name: Substring
      var inlineValue: String?
      if word.hasPrefix("--") {
        name = word.dropFirst(2)
        if let equals = name.firstIndex(of: "=") {
          inlineValue = String(name[name.index(after: equals)...])
          name = name[..<equals]
        }
      } else {
        guard word.count == 2, let letter = word.last,
          let spec = specs.first(where: { $0.shortName == letter })
        else {
          throw .unknownOption(word, command: command)
        }
        name = Substring(spec.name)
      }
      guard let spec = specs.first(where: { $0.name == name }) else {
        throw .unknownOption(word, command: command)
      }
      guard spec.valueName != nil else {
        if inlineValue != nil { throw .unexpectedValue(option: "--\(spec.name)") }
        flags.insert(spec.name)
        continue
      }
      if let inlineValue {
        values[spec.name] = inlineValue
      } else if index < words.count {
        values[spec.name] = words[index]
        index += 1
      } else {
        throw .missingValue(option: "--\(spec.name)", valueName: spec.valueName ?? "VALUE")
      }
    }
  }

  /// Whether `word` is `-x` or `--name`: a dash or two, then a letter.
  static func looksLikeOption(_ word: String) -> Bool {
    let name = word.hasPrefix("--") ? word.dropFirst(2) : word.dropFirst()
    guard word.hasPrefix("-"), let first = name.first else { return false }
    return first.isASCII && first.isLetter
  }

  /// The integer value of `--name`, if given; a usage error if it is not a whole number.
  func integer(_ name: String) throws(UsageError) -> Int? {
    guard let text = values[name] else { return nil }
    guard let value = Int(text) else {
      throw .invalidValue(option: "--\(name)", value: text, expected: "a whole number")
    }
    return value
  }

  /// Whether `--name` was given.
  func has(_ name: String) -> Bool {
    flags.contains(name) || values[name] != nil
  }
}

/// The command line is wrong: status 64.
enum UsageError: Error, Equatable, CustomStringConvertible {
  case missingCommand
  case unknownCommand(String)
  case unknownOption(String, command: String)
  case missingValue(option: String, valueName: String)
  case unexpectedValue(option: String)
  case invalidValue(option: String, value: String, expected: String)
  case conflictingOptions(String, String)
  case requiresOption(String, requirement: String)
  case unexpectedOperands(command: String, [String])
  case emptyText(command: String)

  var description: String {
    switch self {
    case .missingCommand:
      return "no command given; try `morsetorch send \"SOS\"` or `morsetorch --help`"
    case .unknownCommand(let name):
      return "unknown command '\(name)'; the commands are send, encode, decode, list, status, "
        + "stop, help (see `morsetorch --help`)"
    case .unknownOption(let option, let command) where command == "morsetorch":
      return "unknown option '\(option)'; see `morsetorch --help`"
    case .unknownOption(let option, let command):
      return "unknown option '\(option)' for '\(command)'; see `morsetorch \(command) --help`"
    case .missingValue(let option, let valueName):
      return "\(option) needs a value: \(option) \(valueName)"
    case .unexpectedValue(let option):
      return "\(option) takes no value"
    case .invalidValue(let option, let value, let expected):
      return "\(option) '\(value)' is not valid: expected \(expected)"
    case .conflictingOptions(let first, let second):
      return "\(first) and \(second) cannot be used together"
    case .requiresOption(let option, let requirement):
      return "\(option) needs \(requirement)"
    case .unexpectedOperands(let command, let operands):
      return "'\(command)' takes no arguments, but was given: \(operands.joined(separator: " "))"
    case .emptyText(let command):
      return "nothing to \(command): the text is empty"
    }
  }
}
