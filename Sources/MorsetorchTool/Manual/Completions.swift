/// The shell completion scripts, made from the command table: every command and its options,
/// each kind's devices for its options (LED names for `--led`, GPIO chips for `--gpio`, as
/// its home says), the values of `--bias`, `--alphabet` and `--completions`, files for
/// `receive --edges`.
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

  /// The first line of a command's or option's help.
  private static func firstLine(_ text: String) -> String {
    text.split(separator: "\n").first.map(String.init) ?? ""
  }

  /// The first line of an option's help for zsh, with what its quoting or its `_arguments`
  /// and `_describe` syntax could trip on taken out.
  private static func description(_ text: String) -> String {
    String(
      firstLine(text).compactMap { character -> Character? in
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
    var lines =
      bashHelpers + [
        "_morsetorch() {",
        "  local cur prev",
        "  _morsetorch_words",
        "  if [ \"$COMP_CWORD\" -eq 1 ]; then",
        "    COMPREPLY=($(compgen -W \"\(commandNames) --help --version\" -- \"$cur\"))",
        "    return",
        "  fi",
        "  case ${COMP_WORDS[1]} in",
      ]
    for command in CommandTable.commands { lines += bashCase(command) }
    lines += ["  esac", "}", "complete -F _morsetorch morsetorch"]
    return lines.joined(separator: "\n")
  }

  /// The functions the bash script's cases call: the words around the cursor, and each
  /// kind's devices (`DeviceHome.completion`).
  private static let bashHelpers =
    [
      "# bash completion for morsetorch (\(header) bash`)",
      "# LED names hold colons, at which bash splits words: the word at the cursor and the one",
      "# before it are taken from the line itself, and a reply keeps only what follows the last",
      "# colon of the word (bash replaces only that part).",
      "_morsetorch_words() {",
      "  cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
      "  [ -n \"${COMP_LINE-}\" ] || return 0",
      "  local line=${COMP_LINE:0:COMP_POINT}",
      "  cur=${line##*[[:space:]]}",
      "  line=${line%\"$cur\"}",
      "  while [[ $line == *[[:space:]] ]]; do line=${line%?}; done",
      "  prev=${line##*[[:space:]]}",
      "}",
      "_morsetorch_reply() {",
      "  local IFS=$'\\n' prefix= index",
      "  COMPREPLY=($(compgen -W \"$1\" -- \"$cur\"))",
      "  [[ $cur == *:* ]] && prefix=${cur%\"${cur##*:}\"}",
      "  for index in \"${!COMPREPLY[@]}\"; do COMPREPLY[index]=${COMPREPLY[index]#\"$prefix\"}; done",
      "}",
    ]
    + deviceHomes.flatMap { home in
      ["_morsetorch_\(home.completion.function)() {"] + home.completion.bash + ["}"]
    }

  /// The bash case of `command`: values of its options, then its options or operands.
  private static func bashCase(_ command: CommandEntry) -> [String] {
    var valueCases: [String] = []
    var plainValues: [String] = []
    for option in command.options where option.valueName != nil {
      switch option.completion {
      case .devices(let kind):
        valueCases.append(
          "--\(option.name)) _morsetorch_\(kind.home.completion.function); return ;;")
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
    var lines = ["    \(command.name))"]
    if !valueCases.isEmpty {
      lines += ["      case $prev in"] + valueCases.map { "        " + $0 } + ["      esac"]
    }
    let operands =
      command.operands == .commands
      ? "    COMPREPLY=($(compgen -W \"\(commandNames)\" -- \"$cur\"))" : "    :"
    return lines + [
      "      if [[ $cur == -* ]]; then",
      "        COMPREPLY=($(compgen -W \"\(optionWords(command.options))\" -- \"$cur\"))",
      "      else",
      "    " + operands,
      "      fi",
      "      ;;",
    ]
  }

  // MARK: zsh

  static var zsh: String {
    var lines = [
      "#compdef morsetorch",
      "# zsh completion for morsetorch (\(header) zsh`)",
    ]
    for home in deviceHomes {
      lines += ["_morsetorch_\(home.completion.function)() {"] + home.completion.zsh + ["}"]
    }
    lines += [
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
    for command in CommandTable.commands { lines += zshCase(command) }
    lines += ["  esac", "}", "_morsetorch \"$@\""]
    return lines.joined(separator: "\n")
  }

  /// The zsh case of `command`: `_arguments` with a spec per option, and its operands.
  private static func zshCase(_ command: CommandEntry) -> [String] {
    var specs: [String] = []
    for option in command.options {
      let repeatable = option.isRepeatable ? "*" : ""
      var rest = "[\(description(option.help))]"
      if let value = option.valueName {
        let action: String
        switch option.completion {
        case .devices(let kind): action = "_morsetorch_\(kind.home.completion.function)"
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
      // A message, not the action " ": with that, a unique option was listed, not inserted.
      if command.name != "alphabet" && command.name != "list" {
        specs.append("'*:text:_message text'")
      }
    }
    return ["    \(command.name))", "      _arguments -s \\"] + specs.map { "        \($0) \\" }
      + ["        && return", "      ;;"]
  }

  // MARK: fish

  /// `text` as one fish word in single quotes, every character kept: inside them fish reads
  /// only `\\` and `\'` as escapes.
  static func fishQuoted(_ text: String) -> String {
    "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
  }

  static var fish: String {
    var lines = [
      "# fish completion for morsetorch (\(header) fish`)",
      "complete -c morsetorch -f",
    ]
    for home in deviceHomes {
      lines +=
        ["function __morsetorch_\(home.completion.function)"] + home.completion.fish + ["end"]
    }
    lines += [
      "complete -c morsetorch -n __fish_use_subcommand -l help -s h -d 'show help'",
      "complete -c morsetorch -n __fish_use_subcommand -l version -d 'print the version'",
    ]
    for command in CommandTable.commands {
      lines.append(
        "complete -c morsetorch -n __fish_use_subcommand -a \(command.name) -d "
          + fishQuoted(firstLine(command.summary))
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
          case .devices(let kind):
            line += " -x -a '(__morsetorch_\(kind.home.completion.function))'"
          case .files: line += " -r -F"
          case .words(let words): line += " -x -a '\(words.joined(separator: " "))'"
          case .none, .commands: line += " -x"
          }
        }
        lines.append(line + " -d " + fishQuoted(firstLine(option.help)))
      }
    }
    return lines.joined(separator: "\n")
  }
}
