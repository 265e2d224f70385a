/// The words of a command line, sorted by option name (until every command has its typed options).
struct StringArguments: Equatable {
  /// The value of every option given (the last one wins when repeated).
  var values: [String: String] = [:]
  /// Every value of every option given, in order (for options that may be repeated).
  var allValues: [String: [String]] = [:]
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
      if optionsEnded || !OptionWords.looksLikeOption(word) {
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
      allValues[spec.name, default: []].append(values[spec.name] ?? "")
    }
  }

  /// The integer value of `--name`, if given; a usage error saying it expects `expected` if
  /// it is not a whole number written in decimal digits.
  func integer(_ name: String, expected: String = "a whole number") throws(UsageError) -> Int? {
    guard let text = values[name] else { return nil }
    guard let value = OptionWords.wholeNumber(text) else {
      throw .invalidValue(option: "--\(name)", value: text, expected: expected)
    }
    return value
  }

  /// Every value `--name` was given, in order.
  func all(_ name: String) -> [String] {
    allValues[name] ?? []
  }

  /// Whether `--name` was given.
  func has(_ name: String) -> Bool {
    flags.contains(name) || values[name] != nil
  }
}
