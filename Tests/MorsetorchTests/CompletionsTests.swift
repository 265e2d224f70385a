import Foundation
import MorseTestSupport
import Testing

@testable import MorsetorchTool

@Suite("Completions")
struct CompletionsTests {
  private static let shells = ["bash", "zsh", "fish"]

  private static func shellPath(_ name: String) -> String? {
    ["/bin/", "/usr/bin/"].map { $0 + name }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  @Test(arguments: shells)
  func everyCommandAndOptionIsInTheScript(shell: String) throws {
    let script = try #require(Completions.script(for: shell))
    for command in CommandTable.commands {
      #expect(script.contains(command.name), "\(shell): \(command.name)")
      for option in command.options {
        let long = shell == "fish" ? "-l \(option.name)" : "--\(option.name)"
        #expect(script.contains(long), "\(shell) \(command.name): \(long)")
      }
    }
  }

  @Test func anotherShellIsAUsageError() throws {
    let outcome = try MorsetorchProcess.run(
      ["help", "--completions", "tcsh"], ledsDirectory: "/nonexistent")
    #expect(outcome.exitStatus == 64)
    #expect(outcome.standardError.contains("bash, zsh or fish"))
  }

  @Test(arguments: shells)
  func theScriptParses(shell: String) throws {
    guard let path = Self.shellPath(shell) else { return }  // that shell is not installed here
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "morsetorch-completion-\(UUID().uuidString).\(shell)")
    try #require(Completions.script(for: shell)).write(to: file, atomically: false, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["-n", file.path]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 0, "\(shell) -n: \(message)")
  }

  @Test func bashCompletesCommandsOptionsAndLEDValues() throws {
    guard let bash = Self.shellPath("bash") else { return }
    let script = try #require(Completions.script(for: "bash"))
    // The completion function run as bash runs it, with COMP_WORDS set by hand.
    func complete(_ words: [String]) throws -> [String] {
      let quoted = words.map { "'\($0)'" }.joined(separator: " ")
      let line = words.joined(separator: " ")
      let program =
        script + "\nCOMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); "
        + "COMP_LINE='\(line)'; COMP_POINT=\(line.utf8.count); _morsetorch; "
        + #"printf '%s\n' "${COMPREPLY[@]}""#
      return try Self.output(of: bash, program).split(separator: "\n").map(String.init)
    }
    #expect(try complete(["morsetorch", "se"]) == ["send"])
    #expect(try complete(["morsetorch", "send", "--wp"]) == ["--wpm"])
    #expect(try complete(["morsetorch", "send", "--bias", "pull-"]) == ["pull-up", "pull-down"])
    #expect(try complete(["morsetorch", "receive", "--a"]) == ["--active-low", "--alphabet"])
    #expect(try complete(["morsetorch", "help", "rec"]) == ["receive"])
    #expect(try complete(["morsetorch", "send", "--wpm", ""]) == [])
  }

  @Test func bashCompletesFromTheWordsAloneWhenNoLineIsGiven() throws {
    guard let bash = Self.shellPath("bash") else { return }
    let script = try #require(Completions.script(for: "bash"))
    // As a caller that sets only COMP_WORDS (the package test's bash-completion loader check).
    let program =
      script + "\nCOMP_WORDS=(morsetorch send --bi); COMP_CWORD=2; unset COMP_LINE; _morsetorch; "
      + #"printf '%s\n' "${COMPREPLY[@]}""#
    #expect(try Self.output(of: bash, program) == "--bias\n")
  }

  @Test func fishDescriptionsKeepEveryCharacter() throws {
    let script = try #require(Completions.script(for: "fish"))
    let led = try #require(
      script.split(separator: "\n").first {
        $0.contains("__fish_seen_subcommand_from send'") && $0.contains(" -l led ")
      })
    let help = try #require(SendOption.led.spec.help.split(separator: "\n").first)
    #expect(help.contains("'*::capslock'"))
    #expect(led.hasSuffix(" -d " + Completions.fishQuoted(String(help))))
  }

  /// What `fish -c program` writes to standard output, with `variables` set.
  private static func fishOutput(_ program: String, variables: [String: String] = [:]) throws
    -> String
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(shellPath("fish")))
    process.arguments = ["--no-config", "-c", program]
    process.environment = ProcessInfo.processInfo.environment.merging(variables) { $1 }
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text
  }

  @Test(.enabled(if: shellPath("fish") != nil, "fish is not installed"))
  func fishReadsAQuotedWordBackAsItWas() throws {
    let text = #"a'b\c\'d: $HOME "e" `f` (g) [h] {i} ; & | * ~ # \n end\"#
    #expect(try Self.fishOutput("printf %s " + Completions.fishQuoted(text)) == text)
  }

  @Test(.enabled(if: shellPath("fish") != nil, "fish is not installed"))
  func fishOffersEachLEDWithItsStateAndOptionsWithTheirHelp() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("input3::capslock", trigger: "none [kbd-capslock] timer")
    try fixture.addLED("white:flash", maxBrightness: 1, brightness: 1)
    try fixture.addLED("ACT", trigger: nil)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "morsetorch-completion-\(UUID().uuidString).fish")
    try #require(Completions.script(for: "fish")).write(
      to: file, atomically: false, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let output = try Self.fishOutput(
      "source \(file.path); complete -C 'morsetorch send --led '; "
        + "complete -C 'morsetorch send --le'",
      variables: ["MORSETORCH_LEDS_DIR": fixture.ledsPath])
    #expect(
      output.split(separator: "\n").sorted() == [
        "--led\tthe LED to use; repeatable, or a pattern ('*::capslock')",
        "ACT\ttrigger ?, brightness 0/255",
        "input3::capslock\ttrigger kbd-capslock, brightness 0/255",
        "white:flash\ttrigger none, brightness 1/1",
      ])
  }

  /// What `bash -c program` writes to standard output.
  private static func output(of bash: String, _ program: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: bash)
    process.arguments = ["-c", program]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    process.waitUntilExit()
    return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  /// How a shell is started clean in a terminal, the script loaded and `variables` set:
  /// the command tmux runs and the line typed into it first.
  private static func cleanShell(_ shell: String, script: URL, variables: [String: String])
    throws -> (command: String, setup: String)
  {
    let start = "env -i PATH=/usr/bin:/bin TERM=xterm HOME=/tmp PS1='$ ' "
    let exports = variables.sorted { $0.key < $1.key }
    switch shell {
    case "zsh":
      // As installed: a file named _morsetorch in a directory of $fpath, found by compinit.
      let directory = script.deletingLastPathComponent().path
      return (
        start + "zsh -f",
        exports.map { "export \($0.key)=\($0.value); " }.joined()
          + "PS1='$ '; fpath=(\(directory) $fpath); autoload -Uz compinit; compinit -u -D"
      )
    case "fish":
      // No autosuggestion: its grey text would show the completion before the Tab.
      return (
        start + "fish --no-config",
        exports.map { "set -gx \($0.key) \($0.value); " }.joined()
          + "function fish_prompt; echo '$ '; end; set -g fish_autosuggestion_enabled 0; "
          + "set -g fish_greeting; source \(script.path)"
      )
    default:
      return (
        start + "bash --norc --noprofile",
        exports.map { "export \($0.key)=\($0.value); " }.joined() + "source \(script.path)"
      )
    }
  }

  /// Types into a real interactive `shell` in a terminal (tmux), presses Tab, and returns
  /// the screen once it shows `expected` (or whatever it shows after 10 s).
  private func typeAndTab(
    _ text: String, expecting expected: String, shell: String, variables: [String: String]
  ) throws -> String {
    // zsh finds the script by its file name, _morsetorch, in a directory of its own.
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "morsetorch-completion-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("_morsetorch")
    try #require(Completions.script(for: shell)).write(
      to: script, atomically: false, encoding: .utf8)
    let (command, setup) = try Self.cleanShell(shell, script: script, variables: variables)
    let terminal = TerminalSession(command, columns: 200, rows: 10)
    terminal.send("\(setup); clear", literal: true)
    terminal.send("Enter")
    terminal.send(text, literal: true)
    terminal.send("Tab")
    var screen = ""
    _ = eventually {
      screen = terminal.screen()
      return screen.contains(expected)
    }
    return screen
  }

  /// Whether tmux and `shell` are here to run the test in a terminal (CI installs them).
  private static func canType(in shell: String) -> Bool {
    TerminalSession.isAvailable && shellPath(shell) != nil
  }

  @Test(arguments: shells.filter(canType(in:)))
  func completesLEDNamesWithColonsAndChipsAtTheTabInARealTerminal(shell: String) throws {
    let fixture = try TemporaryLEDDirectory()
    for name in ["input3::capslock", "input3::numlock", "white:flash"] {
      try fixture.addLED(name)
    }
    let gpio = try TemporaryGPIODirectory()
    try gpio.addChip(4, label: "pinctrl", lines: 8)
    let variables = ["MORSETORCH_LEDS_DIR": fixture.ledsPath, "MORSETORCH_GPIO_DIR": gpio.path]
    let led = try typeAndTab(
      "morsetorch send --led input3::c", expecting: "input3::capslock", shell: shell,
      variables: variables)
    #expect(led.contains("$ morsetorch send --led input3::capslock"), "\(shell): \(led)")
    let chip = try typeAndTab(
      "morsetorch send --gpio gpio", expecting: "gpiochip4:", shell: shell, variables: variables)
    #expect(chip.contains("$ morsetorch send --gpio gpiochip4:"), "\(shell): \(chip)")
    let option = try typeAndTab(
      "morsetorch receive --alph", expecting: "--alphabet", shell: shell, variables: variables)
    #expect(option.contains("$ morsetorch receive --alphabet"), "\(shell): \(option)")
    let command = try typeAndTab(
      "morsetorch rec", expecting: "receive", shell: shell, variables: variables)
    #expect(command.contains("$ morsetorch receive"), "\(shell): \(command)")
  }

  /// Before: fish showed `*,,capslock`-like names and --led's help beside each LED.
  @Test(.enabled(if: canType(in: "fish"), "needs tmux and fish"))
  func fishListsEachLEDByItsNameAndStateAtTheTab() throws {
    let fixture = try TemporaryLEDDirectory()
    for name in ["input3::capslock", "input3::numlock"] {
      try fixture.addLED(name, trigger: "[none] kbd-capslock")
    }
    let screen = try typeAndTab(
      "morsetorch send --led inp", expecting: "brightness", shell: "fish",
      variables: ["MORSETORCH_LEDS_DIR": fixture.ledsPath])
    #expect(screen.contains("input3::capslock"), "\(screen)")
    #expect(screen.contains("input3::numlock"), "\(screen)")
    #expect(screen.contains("trigger none"), "\(screen)")
    #expect(!screen.contains(",,"), "\(screen)")
  }
}
