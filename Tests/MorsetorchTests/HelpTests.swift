import Glibc
import Testing

@testable import MorsetorchTool

/// Each command's help with the options it accepts.
private let commands: [(name: String, help: String, options: [OptionSpec])] = [
  ("send", HelpText.send, SendOption.specs),
  ("encode", HelpText.encode, EncodeOption.specs),
  ("decode", HelpText.decode, DecodeOption.specs),
  ("receive", HelpText.receive, ReceiveOption.specs),
  ("list", HelpText.list, ListOption.specs),
  ("alphabet", HelpText.alphabet, AlphabetOption.specs),
  ("stop", HelpText.stop, ControlOption.specs),
  ("status", HelpText.status, ControlOption.specs),
  ("morsetorch", HelpText.tool, ToolOption.specs),
]

/// The statuses morsetorch can exit with, by what `ExitStatus` defines.
private let statuses: [Int32] = [
  ExitStatus.success, ExitStatus.notRunning, ExitStatus.cancelledOther, ExitStatus.usage,
  ExitStatus.dataError, ExitStatus.unavailable, ExitStatus.systemError, ExitStatus.cannotCreate,
  ExitStatus.ioError, ExitStatus.temporaryFailure,
  ExitStatus.permissionDenied, ExitStatus.configuration, ExitStatus.signalled(SIGHUP),
  ExitStatus.signalled(SIGINT), ExitStatus.signalled(SIGTERM),
]

/// Whether the "Exit status:" section of `text` lists `status` as a number of its own ("3",
/// not the 3 of "input3" elsewhere in the help).
private func mentions(_ text: String, status: Int32) -> Bool {
  guard let section = text.range(of: "Exit status:") else { return false }
  return text[section.upperBound...].split(whereSeparator: { !$0.isNumber })
    .contains { $0 == "\(status)" }
}

/// `text` with every run of spaces and line breaks as one space.
private func words(of text: String) -> String {
  text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
}

/// Every help text, by what it is for. (A function, not a closure in `@Test`'s arguments:
/// Swift 6.0.3, the arm64 build's, crashes type-checking one there.)
private func everyHelp() -> [(String, String)] {
  [("morsetorch", HelpText.tool)] + CommandTable.commands.map { ($0.name, $0.help) }
}

@Suite("Help")
struct HelpTests {
  @Test(arguments: everyHelp())
  func everyHelpFitsAnEightyColumnTerminal(_ name: String, _ help: String) {
    for line in help.split(separator: "\n") {
      #expect(line.count <= 80, "\(name) --help: \(line.count) columns: \(line)")
    }
  }

  @Test func descriptionsWrapUnderTheirColumn() throws {
    // The long help of send's --led goes on under the column it starts in.
    let lines = HelpText.send.split(separator: "\n").map(String.init)
    let start = try #require(lines.firstIndex { $0.hasPrefix("  --led NAME") })
    let text = try #require(lines[start].range(of: "the LED to use"))
    let column = lines[start].distance(from: lines[start].startIndex, to: text.lowerBound)
    #expect(column == 24)
    let next = lines[start + 1]
    #expect(next.prefix(column).allSatisfy { $0 == " " } && next.dropFirst(column).first != " ")
  }

  @Test(arguments: ["receive", "list"])
  func commandsWithoutAnLEDToChooseDoNotSpeakOfOne(_ name: String) throws {
    let help = try #require(HelpText.forCommand(name))
    #expect(!help.contains("MORSETORCH_LED "), "\(name)")
    #expect(!help.contains("MORSETORCH_LED\n"), "\(name)")
    #expect(!help.contains("MORSETORCH_RUNTIME_DIR"), "\(name)")
    #expect(!help.contains("the LED put back"), "\(name)")
  }

  @Test func eachCommandNamesTheVariablesItReads() {
    #expect(HelpText.receive.contains("MORSETORCH_GPIO_DIR"))
    #expect(!HelpText.receive.contains("MORSETORCH_LEDS_DIR"))
    #expect(HelpText.list.contains("MORSETORCH_LEDS_DIR"))
    #expect(HelpText.stop.contains("MORSETORCH_RUNTIME_DIR"))
    #expect(!HelpText.stop.contains("MORSETORCH_LED "))
    #expect(!HelpText.encode.contains("Environment:"))
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

  @Test func theToolsHelpListsEveryExitStatus() {
    for status in statuses {
      #expect(mentions(HelpText.tool, status: status), "--help lacks exit status \(status)")
    }
  }

  @Test(arguments: commands.indices)
  func eachCommandListsTheStatusesThatApplyToIt(_ index: Int) {
    let (name, help, _) = commands[index]
    #expect(mentions(help, status: ExitStatus.success), "\(name)")
    #expect(mentions(help, status: ExitStatus.usage), "\(name)")
    // Every command reads its arguments, and may find no descriptor free to.
    #expect(mentions(help, status: ExitStatus.systemError), "\(name)")
    let applies: [String: [Int32]] = [
      "send": [ExitStatus.cancelledOther, 65, 69, 75, 77, 78],
      "encode": [65], "decode": [65], "list": [69], "stop": [3, 75, 78], "status": [3, 78],
      "receive": [65, 69, 73, 75, 77],
    ]
    let doesNotApply: [String: [Int32]] = [
      "send": [3], "encode": [3, 4, 69, 78], "decode": [3, 4, 69, 78], "alphabet": [3, 65, 69],
      "list": [3, 4, 65, 78], "stop": [4, 65], "status": [4, 65], "receive": [3, 4, 78],
    ]
    for status in applies[name] ?? [] {
      #expect(mentions(help, status: status), "\(name) --help lacks exit status \(status)")
    }
    for status in doesNotApply[name] ?? [] {
      #expect(!mentions(help, status: status), "\(name) --help lists exit status \(status)")
    }
  }

  @Test func softwareErrorStatusIsDocumented() {
    // failureReport returns 70 for a failed signal watcher and for unexpected errors.
    #expect(mentions(HelpText.exitStatuses, status: ExitStatus.software))
  }

  @Test func exitStatusesNameTheirSignals() {
    #expect(HelpText.exitStatuses.contains("SIGHUP"))
    #expect(HelpText.exitStatuses.contains("SIGINT"))
    #expect(HelpText.exitStatuses.contains("SIGTERM"))
  }

  @Test func toolHelpNamesEveryCommandAndTheEnvironment() {
    for command in ["send", "encode", "decode", "alphabet", "list", "stop", "status", "help"] {
      #expect(HelpText.tool.contains("morsetorch \(command)"))
    }
    #expect(HelpText.tool.contains("MORSETORCH_LEDS_DIR"))
    #expect(HelpText.tool.contains("MORSETORCH_RUNTIME_DIR"))
    #expect(HelpText.tool.contains("MORSETORCH_LED "))
    #expect(HelpText.tool.contains(version))
  }

  @Test func sendHelpNamesTheEnvironment() {
    #expect(HelpText.send.contains("MORSETORCH_LEDS_DIR"))
    #expect(HelpText.send.contains("$MORSETORCH_LED"))
  }

  @Test func helpForEachCommandByName() {
    #expect(HelpText.forCommand("send") == HelpText.send)
    #expect(HelpText.forCommand("encode") == HelpText.encode)
    #expect(HelpText.forCommand("decode") == HelpText.decode)
    #expect(HelpText.forCommand("list") == HelpText.list)
    #expect(HelpText.forCommand("stop") == HelpText.stop)
    #expect(HelpText.forCommand("status") == HelpText.status)
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
