/// The shell completion scripts, made from the command table: every command and its options,
/// LED names for `--led`, GPIO chips for `--gpio`, the values of `--bias`, `--alphabet` and
/// `--completions`, files for `receive --edges`.
enum Completions {
  /// The script for `shell` (bash, zsh or fish), or nil for another shell.
  static func script(for shell: String) -> String? {
    switch shell {
    case "bash": bash
    case "zsh": zsh
    case "fish": fish
    default: nil
    }
  }

  private static let header = "printed by `morsetorch help --completions"
  private static var commandNames: String {
    CommandTable.commands.map(\.name).joined(separator: " ")
  }

  private static func optionWords(_ options: [OptionSpec]) -> String {
    options.flatMap { option in
      (option.shortName.map { ["-\($0)"] } ?? []) + ["--\(option.name)"]
    }.joined(separator: " ")
  }

  /// The first line of an option's help, with what a shell's quoting or syntax could trip on
  /// taken out.
  private static func description(_ text: String) -> String {
    let line = text.split(separator: "\n").first.map(String.init) ?? ""
    return String(
      line.compactMap { character -> Character? in
        switch character {
        case "[": "("
        case "]": ")"
        case ":": ","
        case "'", "\"", "`", "$", "\\": nil
        default: character
        }
      })
  }

  // MARK: bash

  static var bash: String {
    var lines = [
      "# bash completion for morsetorch (\(header) bash`)",
      "_morsetorch_leds() {",
      "  local names",
      "  names=$(ls /sys/class/leds 2>/dev/null)",
      #"  COMPREPLY=($(compgen -W "$names" -- "$1"))"#,
      "  # LED names hold colons, which bash splits words at.",
      "  if declare -F __ltrim_colon_completions >/dev/null; then __ltrim_colon_completions \"$1\"; fi",
      "}",
      "_morsetorch_chips() {",
      "  local chips",
      "  chips=$(cd /dev 2>/dev/null && ls -d gpiochip* 2>/dev/null)",
      #"  COMPREPLY=($(compgen -W "$chips" -- "$1"))"#,
      "}",
      "_morsetorch() {",
      "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
      "  if [ \"$COMP_CWORD\" -eq 1 ]; then",
      "    COMPREPLY=($(compgen -W \"\(commandNames) --help --version\" -- \"$cur\"))",
      "    return",
      "  fi",
      "  case ${COMP_WORDS[1]} in",
    ]
    for command in CommandTable.commands {
      lines.append("    \(command.name))")
      var valueCases: [String] = []
      var plainValues: [String] = []
      for option in command.options where option.valueName != nil {
        switch option.completion {
        case .leds: valueCases.append("--\(option.name)) _morsetorch_leds \"$cur\"; return ;;")
        case .gpioChips:
          valueCases.append("--\(option.name)) _morsetorch_chips \"$cur\"; return ;;")
        case .files:
          valueCases.append("--\(option.name)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;")
        case .words(let words):
          valueCases.append(
            "--\(option.name)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return ;;"
          )
        case .none, .commands: plainValues.append("--\(option.name)")
        }
      }
      if !plainValues.isEmpty {
        valueCases.append(plainValues.joined(separator: "|") + ") return ;;")
      }
      if !valueCases.isEmpty {
        lines.append("      case $prev in")
        lines += valueCases.map { "        " + $0 }
        lines.append("      esac")
      }
      let operands =
        command.operands == .commands
        ? "    COMPREPLY=($(compgen -W \"\(commandNames)\" -- \"$cur\"))" : "    :"
      lines += [
        "      if [[ $cur == -* ]]; then",
        "        COMPREPLY=($(compgen -W \"\(optionWords(command.options))\" -- \"$cur\"))",
        "      else",
        "    " + operands,
        "      fi",
        "      ;;",
      ]
    }
    lines += ["  esac", "}", "complete -F _morsetorch morsetorch"]
    return lines.joined(separator: "\n")
  }

  // MARK: zsh

  static var zsh: String {
    var lines = [
      "#compdef morsetorch",
      "# zsh completion for morsetorch (\(header) zsh`)",
      "_morsetorch_leds() {",
      "  local -a leds",
      "  leds=(/sys/class/leds/*(N:t))",
      "  compadd -a leds",
      "}",
      "_morsetorch_chips() {",
      "  local -a chips",
      "  chips=(/dev/gpiochip*(N:t))",
      "  compadd -a chips",
      "}",
      "_morsetorch() {",
      "  local -a commands",
      "  commands=(",
    ]
    lines += CommandTable.commands.map { "    '\($0.name):\(description($0.summary))'" }
    lines += [
      "  )",
      "  if (( CURRENT == 2 )); then",
      "    _describe -t commands 'morsetorch command' commands",
      "    compadd -- --help --version",
      "    return",
      "  fi",
      "  local command=$words[2]",
      "  shift words",
      "  (( CURRENT-- ))",
      "  case $command in",
    ]
    for command in CommandTable.commands {
      var specs: [String] = []
      for option in command.options {
        let repeatable = option.isRepeatable ? "*" : ""
        var rest = "[\(description(option.help))]"
        if let value = option.valueName {
          let action: String
          switch option.completion {
          case .leds: action = "_morsetorch_leds"
          case .gpioChips: action = "_morsetorch_chips"
          case .files: action = "_files"
          case .words(let words): action = "(\(words.joined(separator: " ")))"
          case .none, .commands: action = " "
          }
          rest += ":\(description(value)):\(action)"
        }
        // Brace expansion for a short and a long name stays outside the quotes.
        specs.append(
          option.shortName.map { "{-\($0),--\(option.name)}'\(rest)'" }
            ?? "'\(repeatable)--\(option.name)\(rest)'")
      }
      switch command.operands {
      case .commands: specs.append("'1:command:(\(commandNames))'")
      default:
        if command.name != "alphabet" && command.name != "list" { specs.append("'*:text: '") }
      }
      lines.append("    \(command.name))")
      lines.append("      _arguments -s \\")
      lines += specs.map { "        \($0) \\" }
      lines.append("        && return")
      lines.append("      ;;")
    }
    lines += ["  esac", "}", "_morsetorch \"$@\""]
    return lines.joined(separator: "\n")
  }

  // MARK: fish

  static var fish: String {
    var lines = [
      "# fish completion for morsetorch (\(header) fish`)",
      "complete -c morsetorch -f",
      "complete -c morsetorch -n __fish_use_subcommand -l help -s h -d 'show help'",
      "complete -c morsetorch -n __fish_use_subcommand -l version -d 'print the version'",
    ]
    for command in CommandTable.commands {
      lines.append(
        "complete -c morsetorch -n __fish_use_subcommand -a \(command.name) -d '\(description(command.summary))'"
      )
    }
    for command in CommandTable.commands {
      let condition = "-n '__fish_seen_subcommand_from \(command.name)'"
      if command.operands == .commands {
        lines.append("complete -c morsetorch \(condition) -a '\(commandNames)'")
      }
      for option in command.options {
        var line = "complete -c morsetorch \(condition) -l \(option.name)"
        if let short = option.shortName { line += " -s \(short)" }
        if option.valueName != nil {
          switch option.completion {
          case .leds: line += " -x -a '(ls /sys/class/leds 2>/dev/null)'"
          case .gpioChips: line += " -x -a '(ls /dev 2>/dev/null | string match \"gpiochip*\")'"
          case .files: line += " -r -F"
          case .words(let words): line += " -x -a '\(words.joined(separator: " "))'"
          case .none, .commands: line += " -x"
          }
        }
        lines.append(line + " -d '\(description(option.help))'")
      }
    }
    return lines.joined(separator: "\n")
  }
}
