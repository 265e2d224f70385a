import LinuxSystem

/// The command line is wrong: status 64.
enum UsageError: Error, Equatable, CustomStringConvertible {
  case missingCommand
  case unknownCommand(String)
  case unknownOption(String, command: String)
  case missingValue(option: String, valueName: String)
  /// The word after an option that needs a value is itself an option.
  case optionAsValue(option: String, valueName: String, word: String)
  case unexpectedValue(option: String)
  case invalidValue(option: String, value: String, expected: String)
  case conflictingOptions(String, String)
  case requiresOption(String, requirement: String)
  case unexpectedOperands(command: String, [String])
  case emptyText(command: String)
  /// More devices (`count`, of the kind `devices` names) than one transmission may use.
  case tooManyDevices(option: String, count: Int, devices: String, limit: Int)
  /// `--detach` under a systemd service (`MORSETORCH_SERVICE`), which must keep the process.
  case detachUnderService(String)

  var description: String {
    switch self {
    case .missingCommand:
      return "no command given; try `morsetorch send \"SOS\"` or `morsetorch --help`"
    case .unknownCommand(let name):
      let commands = CommandTable.commands.map(\.name)
      if let meant = OptionWords.closest(to: name, among: commands) {
        return
          "unknown command '\(shown: name)'; did you mean '\(meant)'? (see `morsetorch --help`)"
      }
      return
        "unknown command '\(shown: name)'; the commands are "
        + CommandTable.commands.map(\.name).joined(separator: ", ")
        + " (see `morsetorch --help`)"
    case .unknownOption(let option, let command):
      let isTool = command == "morsetorch"
      let names =
        isTool
        ? ToolOption.allCases.map(\.spec.flag)
        : (CommandTable.command(command)?.options ?? []).map { "--" + $0.name }
      var typed = option.split(separator: "=", maxSplits: 1).first.map(String.init) ?? option
      // A long option written with one dash, or a short one there is not (`-v`): as the long
      // ones it may begin (`--version`).
      if typed.hasPrefix("-"), !typed.hasPrefix("--") { typed = "-" + typed }
      let help = isTool ? "`morsetorch --help`" : "`morsetorch \(command) --help`"
      let unknown = "unknown option '\(shown: option)'" + (isTool ? "" : " for '\(command)'")
      guard let meant = OptionWords.closest(to: typed, among: names) else {
        return unknown + "; see \(help)"
      }
      return unknown + "; did you mean \(meant)? (see \(help))"
    case .optionAsValue(let option, let valueName, let word):
      return "\(option) needs a value (\(valueName)), but '\(shown: word)' is an option; to give "
        + "it as the value, write \(option)=\(shown: word)"
    case .missingValue(let option, let valueName):
      return "\(option) needs a value: \(option) \(valueName)"
    case .unexpectedValue(let option):
      return "\(option) takes no value"
    case .invalidValue(let option, let value, let expected):
      return "\(option) '\(shown: value)' is not valid: expected \(expected)"
    case .conflictingOptions(let first, let second):
      return "\(first) and \(second) cannot be used together"
    case .requiresOption(let option, let requirement):
      return "\(option) needs \(requirement)"
    case .unexpectedOperands(let command, let operands):
      let given = operands.joined(separator: " ")
      return "'\(command)' takes no arguments, but was given: \(shown: given)"
    case .detachUnderService(let service):
      return "--detach cannot be used under the systemd service \(shown: service): systemd keeps "
        + "the sender running and stops it (putting the LED back); remove --detach from its OPTIONS"
    case .emptyText(let command):
      return "nothing to \(command): the text is empty"
    case .tooManyDevices(let option, let count, let devices, let limit):
      return "\(option) names \(count) \(devices), but one transmission can use at most \(limit)"
    }
  }
}
