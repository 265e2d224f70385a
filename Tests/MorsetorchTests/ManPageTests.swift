import Foundation
import Testing

@testable import MorsetorchTool

/// The manual page against `--help`: it is made from the same text, and these keep it so.
@Suite("ManPage")
struct ManPageTests {
  private let page = ManPage.text

  /// The page's COMMANDS section for `command`: from its `.SS` heading to the next.
  private func section(of command: String) -> String {
    let parts = page.components(separatedBy: "\n.SS ")
    let part = parts.first { $0.hasPrefix(command + " ") || $0.hasPrefix(command + "\n") } ?? ""
    return part.components(separatedBy: "\n.SH ").first ?? ""
  }

  /// The long options a help text lists, as `--name`, from its option lines.
  private func optionsListed(in help: String) -> Set<String> {
    let block = help.components(separatedBy: "\n\n").first { $0.hasPrefix("Options:") } ?? ""
    return Set(
      block.split(separator: "\n").compactMap { line -> String? in
        guard let range = line.range(of: #"--[a-z-]+"#, options: .regularExpression),
          line.hasPrefix("  -")
        else { return nil }
        return String(line[range])
      })
  }

  /// The options a man section lists, as `--name`, from its `.TP` items.
  private func optionsListed(inSection section: String) -> Set<String> {
    let lines = section.components(separatedBy: "\n")
    var names: Set<String> = []
    for (index, line) in lines.enumerated() where line == ".TP" && index + 1 < lines.count {
      let term = lines[index + 1].replacingOccurrences(of: #"\-"#, with: "-")
      if let range = term.range(of: #"--[a-z-]+"#, options: .regularExpression) {
        names.insert(String(term[range]))
      }
    }
    return names
  }

  @Test(arguments: CommandTable.commands.map(\.name))
  func everyOptionOfACommandsHelpIsInItsManSectionAndNoOther(command: String) throws {
    let help = try #require(HelpText.forCommand(command))
    let fromHelp = optionsListed(in: help)
    #expect(!fromHelp.isEmpty)
    #expect(optionsListed(inSection: section(of: command)) == fromHelp)
  }

  /// The page's section under `.SH heading`, up to the next.
  private func topSection(_ heading: String) -> String {
    let section = page.components(separatedBy: "\n.SH \(heading)\n").dropFirst().first ?? ""
    return section.components(separatedBy: "\n.SH ").first ?? ""
  }

  /// `text` with every run of white space as one space, and roff's `\-` as `-`.
  private func plain(_ text: some StringProtocol) -> String {
    text.replacingOccurrences(of: #"\-"#, with: "-").split(whereSeparator: \.isWhitespace)
      .joined(separator: " ")
  }

  @Test(arguments: CommandTable.commands.map(\.name))
  func everyParagraphOfTheCommandIsInItsManSection(command: String) throws {
    let help = try #require(CommandTable.command(command)?.help)
    let section = section(of: command)
    for paragraph in help.paragraphs {
      for line in paragraph.split(separator: "\n") {
        #expect(section.contains(ManPage.escaped(String(line))), "\(command): \(line)")
      }
    }
    for option in help.options {
      for line in (option.details ?? "").split(separator: "\n") {
        #expect(section.contains(ManPage.escaped(String(line))), "\(command): \(line)")
      }
    }
  }

  @Test(arguments: CommandTable.commands.map(\.name))
  func eachSectionGivesTheCommandsStatusesAndVariables(command: String) throws {
    let help = try #require(CommandTable.command(command)?.help)
    let section = plain(section(of: command))
    let numbers = help.statuses.map(\.term).joined(separator: ", ")
    #expect(section.contains("Exit status: \(numbers) (EXIT STATUS)"), "\(command)")
    // A status that means something narrower for the command is given in full.
    for row in help.statuses {
      let isGeneral = HelpText.statusRows.contains { $0.term == row.term && $0.text == row.text }
      let text = plain(ManPage.escaped(row.text))
      #expect(isGeneral || section.contains(".B \(row.term) \(text)"), "\(row.text)")
    }
    for variable in help.environment {
      #expect(section.contains(variable.term), "\(command): \(variable.term)")
    }
  }

  /// The SYNOPSIS section's `.SY` … `.YS` blocks, each as its lines.
  private func synopsisBlocks() -> [[Substring]] {
    topSection("SYNOPSIS").split(separator: "\n").split { $0 == ".YS" }.map(Array.init)
  }

  /// A synopsis block as it reads: `.OP a b` as `[a b]`, fonts and escapes taken out.
  private func readText(_ block: [Substring]) -> String {
    block.map { line -> String in
      var text = String(line)
      if text.hasPrefix(".OP ") { text = "[" + text.dropFirst(4) + "]" }
      if text.hasPrefix(".SY ") || text.hasPrefix(".B ") {
        text = String(text.drop { $0 != " " }.dropFirst())
      }
      for (roff, plain) in [
        (#"\fB"#, ""), (#"\fI"#, ""), (#"\fR"#, ""), (#"\&"#, ""), (#"\~"#, " "), (#"\-"#, "-"),
      ] {
        text = text.replacingOccurrences(of: roff, with: plain)
      }
      return text
    }.joined(separator: " ")
  }

  @Test func theSynopsisIsWholeAndNamesEverySourceOfReceive() throws {
    let usages = CommandTable.commands.map(\.help.usage) + ["--help", "--version"]
    #expect(synopsisBlocks().map(readText) == usages.map { "morsetorch " + $0 })
    let receive = try #require(synopsisBlocks().map(readText).first { $0.contains(" receive ") })
    for source in SourceOption.allCases {
      let spec = source.option.spec
      let words = [spec.flag, spec.valueName].compactMap { $0 }.joined(separator: " ")
      #expect(receive.contains(words), "\(receive)")
    }
  }

  /// man(7)'s synopsis macros, so that a line too long for the page goes on indented under
  /// the command; the lines break only between groups of words, or at a `|`.
  @Test func eachSynopsisIsASYBlockThatBreaksOnlyBetweenGroups() throws {
    let blocks = synopsisBlocks()
    #expect(blocks.count == CommandTable.commands.count + 2)
    #expect(!topSection("SYNOPSIS").contains(".br"))
    for block in blocks {
      #expect(block.first == ".SY morsetorch", "\(block)")
      #expect(block.dropFirst().first?.hasPrefix(".B ") == true, "\(block)")
      for line in block.dropFirst(2) {
        if line.hasPrefix(".OP ") {
          #expect(!line.contains("["), "\(line)")
          continue
        }
        #expect(!line.hasPrefix("."), "\(line)")
        let breakable = line.replacingOccurrences(of: " | ", with: "")
        #expect(!breakable.contains(" "), "\(line)")
      }
    }
    let decode = try #require(blocks.first { $0.contains(".B decode") })
    #expect(decode.contains(#".OP \-\-alphabet NAME"#))
    let stop = try #require(blocks.first { $0.contains(".B stop") })
    #expect(stop.contains(#"\&[\fB\-\-led\fR\~\fINAME\fR]..."#), "\(stop)")
  }

  @Test func itSaysWhereReceiveReadsFromEverywhereItDescribesIt() throws {
    // The list as the table says it, and every source's phrase in it.
    let sources = SourceOption.phrases
    for source in SourceOption.allCases { #expect(sources.contains(source.phrase)) }
    let name = topSection("NAME")
    #expect(plain(name).contains(sources))
    let description = topSection("DESCRIPTION")
    #expect(plain(description).contains("receives Morse from \(sources)"))
    let summary = plain(try #require(CommandTable.command("receive")?.summary))
    #expect(summary.contains(sources))
    #expect(plain(description).contains(".B receive \(summary)"))
    let receiving = ManualTopics.receiving.components(separatedBy: "\n\n").first ?? ""
    #expect(plain(receiving).contains(sources))
  }

  @Test func itSaysTextIsStrictAndAStreamSkipsWhatHasNoSignal() {
    for text in [plain(section(of: "send")), plain(ManualTopics.encoding)] {
      #expect(text.contains("(65)") || text.contains("status 65"))
      #expect(text.contains("unless --skip-unknown drops it with a warning"))
      #expect(text.contains("never ends on one"))
      #expect(text.contains("dropped"))
      #expect(text.contains("one warning"))
    }
    #expect(!page.contains("Every character is checked before anything is sent"))
  }

  @Test func receivingSaysWhatFilesMayHoldAndHowTheyAreOpened() {
    let text = ManualTopics.receiving.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(text.contains("A FIFO as FILE needs its reader started first"))
    #expect(text.contains("a # comment line may be any length"))
    #expect(text.contains("Parameters after a FRAME word are ignored"))
    #expect(text.contains("a header that gives a tag twice (two W tags) is refused"))
  }

  /// The pipes .ci/test-video runs (after the camera's own stage) are the manual's.
  @Test func receivingGivesThePipesForCamerasTheCameraOptionCannotTake() {
    let text = ManualTopics.receiving.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    let pipes = [
      "rpicam-vid -t 0 --codec yuv420 --width 640 --height 480 --framerate 30 -o - | ffmpeg -f "
        + "rawvideo -pix_fmt yuv420p -s 640x480 -r 30 -i - -f yuv4mpegpipe - | morsetorch "
        + "receive --video -",
      "ffmpeg -f v4l2 -input_format mjpeg -video_size 1280x720 -i /dev/video0 -pix_fmt yuv420p "
        + "-f yuv4mpegpipe - | morsetorch receive --video -",
      "ffmpeg -i http://PHONE:8080/video -pix_fmt yuv420p -f yuv4mpegpipe - | morsetorch "
        + "receive --video -",
    ]
    for pipe in pipes { #expect(text.contains(pipe), "\(pipe)") }
  }

  @Test func theToolsOwnOptionsAreInOptions() {
    let options = page.components(separatedBy: ".SH OPTIONS").last ?? ""
    #expect(options.contains(#"\fB\-\-help\fR"#) && options.contains(#"\fB\-\-version\fR"#))
  }

  @Test func theToolsExamplesAreInExamples() {
    let examples = page.components(separatedBy: ".SH EXAMPLES").last ?? ""
    for example in HelpText.examples {
      #expect(examples.contains(ManPage.escaped(example)), "\(example)")
    }
  }

  @Test func everyCommandOfTheToolsHelpHasASection() {
    for line in HelpText.tool.split(separator: "\n") where line.hasPrefix("  morsetorch ") {
      let command = line.split(separator: " ")[1]
      #expect(!section(of: String(command)).isEmpty, "\(command)")
    }
  }

  @Test func everyExitStatusIsUnderExitStatus() {
    let statuses = page.components(separatedBy: ".SH EXIT STATUS").last ?? ""
    for row in HelpText.statusRows {
      #expect(statuses.contains(".B \(row.term)\n\(ManPage.escaped(row.text))"), "\(row.term)")
    }
  }

  @Test func everyVariableTheHelpNamesIsUnderEnvironment() {
    let environment =
      page.components(separatedBy: ".SH ENVIRONMENT").last?.components(separatedBy: ".SH ").first
      ?? ""
    let helps =
      [HelpText.tool]
      + CommandTable.commands.map {
        ([$0.help.text] + $0.help.paragraphs + $0.help.environment.map(\.term))
          .joined(separator: "\n")
      }
    let pattern = #"\b(MORSETORCH_[A-Z_]+|XDG_RUNTIME_DIR|NO_COLOR)\b"#
    for help in helps {
      var rest = help[...]
      while let range = rest.range(of: pattern, options: .regularExpression) {
        #expect(environment.contains(".B \(rest[range])\n"), "\(rest[range])")
        rest = rest[range.upperBound...]
      }
    }
  }

  @Test func itIsTheReferenceWithEverySectionAUserLooksFor() {
    let headings = page.split(separator: "\n").filter { $0.hasPrefix(".SH ") }.map {
      String($0.dropFirst(4))
    }
    for heading in [
      "COMMANDS", "OPTIONS", "PERMISSIONS", "ONE TRANSMISSION PER DEVICE", "TIMING", "ENCODING",
      "GPIO", "RECEIVING", "BEACON", "ENVIRONMENT", "FILES", "EXIT STATUS", "SECURITY",
    ] {
      #expect(headings.contains(heading), "no section \(heading): \(headings)")
    }
    #expect(!page.contains("README"), "the manual sends people to a README")
    // The beacon's configuration format is given, not only named.
    #expect(page.contains("TEXT=") && page.contains("OPTIONS="))
  }

  @Test func itSaysHowToGetPermissionAndGivesTheRules() {
    let section = page.components(separatedBy: "\n.SH PERMISSIONS\n").dropFirst().first ?? ""
    let text = section.components(separatedBy: "\n.SH ").first ?? ""
    #expect(text.contains("usermod \\-aG leds"))
    for rule in deviceHomes.compactMap { $0.access.rule } {
      #expect(text.contains(ManPage.escaped(rule)))
    }
    #expect(text.contains("3770"))
  }

  @Test func itStatesTheTrustModelOfTheSharedDirectory() {
    let security = page.components(separatedBy: "\n.SH SECURITY\n").dropFirst().first ?? ""
    let text = (security.components(separatedBy: "\n.SH ").first ?? "").replacing("\n", with: " ")
    for promise in [
      "proves no more than the kernel says about it", "hard link", "renaming it back in",
      "that user's rights on files", "setfsuid", "no handle on root's", "ACLs",
      "lets only its owner write", "sticky bit",
      "RESOLVE_NO_SYMLINKS", "gpiochipN character device", "pid \\-1",
      "more than one link", "without changing their exit status",
    ] {
      #expect(text.contains(promise), "SECURITY does not say \(promise)")
    }
  }

  @Test func itCarriesTheVersionAndNoLineIsReadAsARequestByMistake() {
    #expect(page.contains("\"morsetorch \(version)\""))
    for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
      let request = line.split(separator: " ").first.map(String.init) ?? ""
      #expect(
        [
          ".TH", ".SH", ".SS", ".PP", ".TP", ".B", ".I", ".BR", ".RS", ".RE", ".br", ".nf", ".fi",
          ".SY", ".OP", ".YS", #".\""#,
        ]
        .contains(request), "\(line)")
    }
  }

  @Test func helpManPrintsIt() throws {
    let outcome = try MorsetorchProcess.run(["help", "--man"], ledsDirectory: "/nonexistent")
    #expect(outcome.exitStatus == 0)
    #expect(outcome.standardOutput == page + "\n")
  }
}
