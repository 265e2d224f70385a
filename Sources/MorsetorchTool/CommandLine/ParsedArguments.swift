/// The words of a command line, sorted into the options of one command (`Option`'s cases),
/// flags and operands.
struct ParsedArguments<Option: CommandOption>: Equatable {
  /// The command, for what its errors say.
  let command: String
  /// The value of every option given (the last one wins when repeated).
  private(set) var values: [Option: String] = [:]
  /// Every value of every option given, in order (for options that may be repeated).
  private(set) var allValues: [Option: [String]] = [:]
  /// The flags given.
  private(set) var flags: Set<Option> = []
  /// Everything else, in order.
  private(set) var operands: [String] = []

  /// Sorts `words`: `--name value`, `--name=value`, `-h`, and `--` ending options.
  ///
  /// Only a dash followed by a letter starts an option, so Morse code such as `-.-.` or `---`
  /// and a lone `-` (standard input) are operands.
  init(_ words: [String], command: String) throws(UsageError) {
    self.command = command
    var index = 0
    var optionsEnded = false
    while index < words.count {
      let word = words[index]
      index += 1
      if !optionsEnded && word == "--" {
        optionsEnded = true
        continue
      }
      if optionsEnded || !OptionWords.looksLikeOption(word) {
        operands.append(word)
        continue
      }
      let (option, inlineValue) = try Self.option(in: word, command: command)
      guard let valueName = option.spec.valueName else {
        if inlineValue != nil { throw .unexpectedValue(option: option.flag) }
        flags.insert(option)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else if option.spec.isValueOptional
        && (index == words.count || words[index] == "--"
          || OptionWords.looksLikeOption(words[index]))
      {
        flags.insert(option)
        continue
      } else if index < words.count {
        // `receive --edges --alphabet russian -` read a file named --alphabet.
        guard !OptionWords.looksLikeOption(words[index]) else {
          throw .optionAsValue(option: option.flag, valueName: valueName, word: words[index])
        }
        value = words[index]
        index += 1
      } else {
        throw .missingValue(option: option.flag, valueName: valueName)
      }
      values[option] = value
      allValues[option, default: []].append(value)
    }
  }

  /// The option `word` names (`--name`, `--name=value` or `-x`), and the value after its `=`.
  private static func option(in word: String, command: String) throws(UsageError) -> (
    Option, String?
  ) {
    guard word.hasPrefix("--") else {
      let letter = word.dropFirst().first
      guard let option = Option.allCases.first(where: { $0.spec.shortName == letter }) else {
        throw .unknownOption(word, command: command)
      }
      guard word.count == 2 else {
        // `-p6789`, as getopt reads it: only for an option that takes a value.
        guard option.spec.valueName != nil else { throw .unknownOption(word, command: command) }
        return (option, String(word.dropFirst(2)))
      }
      return (option, nil)
    }
    var name = word.dropFirst(2)
    var inlineValue: String?
    if let equals = name.firstIndex(of: "=") {
      inlineValue = String(name[name.index(after: equals)...])
      name = name[..<equals]
    }
    guard let option = Option.allCases.first(where: { $0.spec.name == name }) else {
      throw .unknownOption(word, command: command)
    }
    return (option, inlineValue)
  }

  /// Whether `option` was given.
  func has(_ option: Option) -> Bool {
    flags.contains(option) || values[option] != nil
  }

  /// The value of `option`, if given (the last, when given more than once).
  func value(_ option: Option) -> String? {
    values[option]
  }

  /// Every value `option` was given, in order.
  func all(_ option: Option) -> [String] {
    allValues[option] ?? []
  }

  /// The integer value of `option`, if given; a usage error saying it expects `expected` if
  /// it is not a whole number written in decimal digits.
  func integer(_ option: Option, expected: String = "a whole number") throws(UsageError) -> Int? {
    guard let text = values[option] else { return nil }
    guard let value = OptionWords.wholeNumber(text) else {
      throw .invalidValue(option: option.flag, value: text, expected: expected)
    }
    return value
  }

  /// Nothing, for a command that takes no operands; a usage error naming what was given.
  func checkNoOperands() throws(UsageError) {
    guard operands.isEmpty else { throw .unexpectedOperands(command: command, operands) }
  }
}
