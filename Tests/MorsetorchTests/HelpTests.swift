import Glibc
import Testing

@testable import MorsetorchTool

/// Each command's help with the options it accepts.
private let commands: [(name: String, help: String, options: [OptionSpec])] = [
  ("send", HelpText.send.text, SendOption.specs),
  ("encode", HelpText.encode.text, EncodeOption.specs),
  ("decode", HelpText.decode.text, DecodeOption.specs),
  ("receive", HelpText.receive.text, ReceiveOption.specs),
  ("list", HelpText.list.text, ListOption.specs),
  ("alphabet", HelpText.alphabet.text, AlphabetOption.specs),
  ("stop", HelpText.stop.text, ControlOption.specs),
  ("status", HelpText.status.text, ControlOption.specs),
  ("help", HelpText.help.text, HelpOption.specs),
  ("morsetorch", HelpText.tool, ToolOption.specs),
]

/// The statuses morsetorch can exit with, by what `ExitStatus` defines.
private let statuses: [Int32] = [
  ExitStatus.success, ExitStatus.notRunning, ExitStatus.cancelledOther, ExitStatus.nothingRead,
  ExitStatus.usage,
  ExitStatus.dataError, ExitStatus.unavailable, ExitStatus.systemError, ExitStatus.cannotCreate,
  ExitStatus.ioError, ExitStatus.temporaryFailure,
  ExitStatus.permissionDenied, ExitStatus.configuration, ExitStatus.signalled(SIGHUP),
  ExitStatus.signalled(SIGINT), ExitStatus.signalled(SIGTERM),
]

/// Whether `rows` list `status` as a number of its own ("3", not the 3 of "input3"): as a
/// row, or as a signal's status in the 128+N row.
private func mentions(_ rows: [HelpLayout.Row], status: Int32) -> Bool {
  rows.map { "\($0.term) \($0.text)" }.joined(separator: "\n")
    .split(whereSeparator: { !$0.isNumber }).contains { $0 == "\(status)" }
}

/// `text` with every run of spaces and line breaks as one space.
private func words(of text: String) -> String {
  text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
}

/// Every help text, by what it is for. (A function, not a closure in `@Test`'s arguments:
/// Swift 6.0.3, the arm64 build's, crashes type-checking one there.)
private func everyHelp() -> [(String, String)] {
  [("morsetorch", HelpText.tool)] + CommandTable.commands.map { ($0.name, $0.help.text) }
}

@Suite("Help")
struct HelpTests {
  @Test(arguments: everyHelp())
  func everyHelpFitsAnEightyColumnTerminal(_ name: String, _ help: String) {
    for line in help.split(separator: "\n") {
      #expect(line.count <= 80, "\(name) --help: \(line.count) columns: \(line)")
    }
  }

  @Test(arguments: everyHelp())
  func everyHelpIsShortAndEndsPointingToTheManual(_ name: String, _ help: String) {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count <= (name == "morsetorch" ? 30 : 45), "\(name) --help: \(lines.count) lines")
    #expect(lines.last?.contains("man morsetorch") == true, "\(name): \(lines.last ?? "")")
    #expect(lines.last?.contains("morsetorch help --man") == true, "\(name)")
    #expect(!help.contains("Exit status:") && !help.contains("Environment:"), "\(name)")
  }

  @Test func descriptionsWrapUnderTheirColumn() throws {
    let rows = [HelpLayout.Row("--led NAME", String(repeating: "word ", count: 20))]
    let lines = HelpLayout.table(rows, column: 24).split(separator: "\n").map(String.init)
    #expect(lines.count > 1)
    #expect(lines[0].hasPrefix("  --led NAME") && lines[0].dropFirst(24).hasPrefix("word"))
    for line in lines.dropFirst() {
      #expect(line.prefix(24).allSatisfy { $0 == " " } && line.dropFirst(24).first != " ")
    }
  }

  @Test(arguments: commands.indices)
  func everyOptionHasOneLineOfHelp(_ index: Int) throws {
    let (name, help, options) = commands[index]
    guard name != "morsetorch" else { return }
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for option in options {
      var term = option.shortName.map { "  -\($0), " } ?? "  "
      term += "--\(option.name)"
      if let value = option.valueName { term += " \(value)" }
      let line = try #require(lines.firstIndex { $0.hasPrefix(term + " ") })
      #expect(lines[line].hasSuffix(option.help), "\(name) --\(option.name): \(lines[line])")
      let next = lines[line + 1]
      #expect(next.isEmpty || next.hasPrefix("  -"), "\(name) --\(option.name) wraps: \(next)")
    }
  }

  @Test(arguments: ["receive", "list"])
  func commandsWithoutAnLEDToChooseDoNotSpeakOfOne(_ name: String) throws {
    let help = try #require(CommandTable.command(name)?.help)
    let variables = help.environment.map(\.term)
    #expect(!variables.contains("MORSETORCH_LED"), "\(name)")
    #expect(!variables.contains("MORSETORCH_RUNTIME_DIR"), "\(name)")
    #expect(!help.statuses.contains { $0.text.contains("the LED put back") }, "\(name)")
  }

  @Test func eachCommandNamesTheVariablesItReads() {
    func reads(_ help: CommandHelp, _ name: String) -> Bool {
      help.environment.contains { $0.term == name }
    }
    #expect(reads(HelpText.receive, "MORSETORCH_GPIO_DIR"))
    #expect(reads(HelpText.receive, "MORSETORCH_VIDEO_DIR"))
    #expect(!reads(HelpText.receive, "MORSETORCH_LEDS_DIR"))
    #expect(reads(HelpText.list, "MORSETORCH_LEDS_DIR"))
    #expect(reads(HelpText.stop, "MORSETORCH_RUNTIME_DIR"))
    #expect(!reads(HelpText.stop, "MORSETORCH_LED"))
    #expect(reads(HelpText.send, "MORSETORCH_LED"))
    #expect(HelpText.encode.environment.isEmpty)
  }

  @Test(arguments: commands.indices)
  func helpListsEveryOptionWithItsValueAndText(_ index: Int) {
    let (name, help, options) = commands[index]
    for option in options {
      var usage = "--\(option.name)"
      if let value = option.valueName { usage += " \(value)" }
      #expect(help.contains(usage), "\(name) --help lacks \(usage)")
      // The tool's own help words its two options by hand.
      if name != "morsetorch" {
        // Wrapped to the terminal's width: the same words, not the same lines.
        #expect(
          words(of: help).contains(words(of: option.help)),
          "\(name) --help lacks the text of --\(option.name)")
      }
      if let short = option.shortName {
        #expect(help.contains("-\(short)"), "\(name) --help lacks -\(short)")
      }
    }
  }

  @Test func theStatusRowsListEveryExitStatus() {
    for status in statuses {
      #expect(mentions(HelpText.statusRows, status: status), "no exit status \(status)")
    }
  }

  @Test(arguments: CommandTable.commands.map(\.name))
  func eachCommandListsTheStatusesThatApplyToIt(_ name: String) throws {
    let rows = try #require(CommandTable.command(name)?.help.statuses)
    #expect(mentions(rows, status: ExitStatus.success), "\(name)")
    // cwdaemon exits as cwdaemon does: 1 for a bad option.
    let usage = name == "cwdaemon" ? ExitStatus.cwdaemonFailure : ExitStatus.usage
    #expect(mentions(rows, status: usage), "\(name)")
    // Every command reads its arguments, and may find no descriptor free to.
    #expect(mentions(rows, status: ExitStatus.systemError), "\(name)")
    let applies: [String: [Int32]] = [
      "send": [ExitStatus.cancelledOther, 65, 69, 75, 77, 78],
      "encode": [65], "decode": [65], "list": [69], "stop": [3, 75, 78], "status": [3, 78],
      "receive": [ExitStatus.nothingRead, 65, 69, 73, 75, 77],
    ]
    let doesNotApply: [String: [Int32]] = [
      "send": [3, 5], "encode": [3, 4, 5, 69, 78], "decode": [3, 4, 5, 69, 78],
      "alphabet": [3, 5, 65, 69], "list": [3, 4, 5, 65, 78], "stop": [4, 5, 65],
      "status": [4, 5, 65], "receive": [3, 4, 78],
    ]
    for status in applies[name] ?? [] {
      #expect(mentions(rows, status: status), "\(name) lacks exit status \(status)")
    }
    for status in doesNotApply[name] ?? [] {
      #expect(!mentions(rows, status: status), "\(name) lists exit status \(status)")
    }
  }

  @Test func softwareErrorStatusIsDocumented() {
    // failureReport returns 70 for a failed signal watcher and for unexpected errors.
    #expect(mentions(HelpText.statusRows, status: ExitStatus.software))
  }

  @Test func exitStatusesNameTheirSignals() {
    let text = HelpText.statusRows.map(\.text).joined(separator: "\n")
    #expect(text.contains("SIGHUP"))
    #expect(text.contains("SIGINT"))
    #expect(text.contains("SIGTERM"))
  }

  @Test func toolHelpNamesEveryCommandAndItsVersion() {
    let words = HelpText.tool.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for command in CommandTable.commands {
      #expect(HelpText.tool.contains("\n  \(command.name) "), "\(command.name)")
      // Its usage line is said once, in its own help (and the manual's synopsis).
      if command.help.usage != command.name {
        #expect(!HelpText.tool.contains(command.help.usage), "\(command.name)")
      }
      // The summary the manual and the completions give too, written once.
      #expect(words.contains(command.summary), "\(command.name)")
    }
    #expect(HelpText.tool.contains(version))
  }

  @Test func sendHelpSaysTextIsStrictAndAStreamIsNot() {
    let text = words(of: HelpText.send.text)
    #expect(text.contains("A character of TEXT with no Morse signal is an error (65)"), "\(text)")
    #expect(text.contains("standard input, a stream, drops terminal escape sequences"))
    #expect(text.contains("skips such characters with a warning"))
    #expect(!text.contains("Every character is checked"))
  }

  @Test func receiveHelpGivesItsWholeUsage() {
    let text = words(of: HelpText.receive.text)
    let sources = SourceOption.allCases.map { source in
      [source.option.spec.flag, source.option.spec.valueName].compactMap { $0 }
        .joined(separator: " ")
    }
    #expect(
      text.hasPrefix(
        "Usage: morsetorch receive (" + sources.joined(separator: " | ") + ") [options]"),
      "\(text)")
    #expect(sources.contains("--camera [DEVICE]"))
    for source in SourceOption.allCases { #expect(text.contains(source.phrase), "\(text)") }
  }

  @Test func helpForEachCommandByName() {
    for command in CommandTable.commands {
      #expect(HelpText.forCommand(command.name) == command.help.text)
    }
    #expect(HelpText.forCommand("send") == HelpText.send.text)
    #expect(HelpText.forCommand("blink") == nil)
  }

  @Test func everyOptionHasHelpAndAUniqueName() {
    for (name, _, options) in commands {
      #expect(Set(options.map(\.name)).count == options.count, "\(name) repeats an option")
      for option in options {
        #expect(!option.help.isEmpty)
        #expect(OptionWords.looksLikeOption("--\(option.name)"))
      }
    }
  }
}
