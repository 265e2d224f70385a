import Foundation
import MorseTestSupport
import Testing

@testable import MorsetorchTool

@Suite("encode, decode, list and the tool, as a process")
struct CommandProcessTests {
  @Test func encodeText() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("encode", "SOS", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == "... --- ...\n")
    #expect(outcome.standardError.isEmpty)
  }

  @Test func encodeTheHelpExample() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("encode", "Hello,", "world", in: fixture)
    #expect(outcome.standardOutput == ".... . .-.. .-.. --- --..-- / .-- --- .-. .-.. -..\n")
  }

  @Test func encodeStandardInputLineByLine() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("encode", in: fixture, input: "SOS\nE\n\nT")
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == "... --- ...\n.\n\n-\n")
  }

  @Test(arguments: [("encode", "SOS\n", "... --- ..."), ("decode", "... --- ...\n", "SOS")])
  func aStreamIsConvertedLineByLineThoughTheOutputIsBuffered(
    command: String, line: String, converted: String
  ) throws {
    let fixture = try TemporaryLEDDirectory()
    let child = try MorsetorchProcess([command], ledsDirectory: fixture.ledsPath)
    // The input stays open: each line must come out while the next is awaited (its line
    // break comes with the next line, which may continue it).
    try child.write(line)
    #expect(eventually { child.standardOutputSoFar == converted }, "\(child.standardOutputSoFar)")
    try child.write(line)
    #expect(eventually { child.standardOutputSoFar == converted + "\n" + converted })
    child.closeInput()
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 0)
    #expect(outcome.standardOutput == converted + "\n" + converted + "\n")
  }

  @Test(arguments: [["send", "--dry-run"], ["send", "--dry-run", "--edges"]])
  func aDryRunOfAStreamShowsEachLinesTimelineThoughTheOutputIsBuffered(command: [String]) throws {
    let fixture = try TemporaryLEDDirectory()
    let child = try MorsetorchProcess(command, ledsDirectory: fixture.ledsPath)
    // "E": one dot; its line (or its two edges) must come out while the input stays open.
    try child.write("E\n")
    let dot = command.contains("--edges") ? "0.100000 0" : "E ."
    #expect(eventually { child.standardOutputSoFar.contains(dot) }, "\(child.standardOutputSoFar)")
    try child.write("T\n")
    let dash = command.contains("--edges") ? "1.100000 0" : "T -"
    #expect(eventually { child.standardOutputSoFar.contains(dash) }, "\(child.standardOutputSoFar)")
    child.closeInput()
    #expect(try child.wait().exitStatus == 0)
  }

  @Test func encodeUnknownCharacter() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("encode", in: fixture, input: "E\nE€\n")
    #expect(outcome.exitStatus == 65, "\(outcome)")
    #expect(outcome.standardOutput == ".\n")
    #expect(outcome.standardError.contains("line 2, column 2"), "\(outcome)")
  }

  @Test func decodeCode() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("decode", "...", "---", "...", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == "SOS\n")
  }

  @Test func decodeStandardInput() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("decode", "-", in: fixture, input: "... --- ...\n. / -\n")
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == "SOS\nE T\n")
  }

  @Test func decodeUnknownCodeNamesItsColumn() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("decode", "... .-.-.-.-.- ...", in: fixture)
    #expect(outcome.exitStatus == 65, "\(outcome)")
    #expect(outcome.standardError.contains("line 1, column 5"), "\(outcome)")
    #expect(outcome.standardError.contains(".-.-.-.-.-"), "\(outcome)")
    // The rest is decoded; the unknown code shows as `receive` shows it.
    #expect(outcome.standardOutput == "S[.-.-.-.-.-]S\n", "\(outcome)")
  }

  @Test func decodeNamesEveryUnknownCodeAndDecodesTheRest() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch(
      "decode", in: fixture, input: "...... --- ...\n.- / ......\n")
    #expect(outcome.exitStatus == 65, "\(outcome)")
    #expect(outcome.standardOutput == "[......]OS\nA [......]\n", "\(outcome)")
    let lines = outcome.standardError.split(separator: "\n")
    #expect(lines.count == 2, "\(outcome)")
    #expect(lines.first?.hasPrefix("morsetorch: \"......\" at line 1, column 1") == true)
    #expect(lines.last?.hasPrefix("morsetorch: \"......\" at line 2, column 6") == true)
  }

  @Test func decodeErrorOnLineTwo() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("decode", in: fixture, input: "... ---\n.-.-.-.-.-\n")
    #expect(outcome.exitStatus == 65, "\(outcome)")
    #expect(outcome.standardOutput == "SO\n[.-.-.-.-.-]\n")
    #expect(outcome.standardError.contains("line 2, column 1"), "\(outcome)")
  }

  @Test func printsTheVersion() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("--version", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == "morsetorch \(version)\n")
  }

  @Test(arguments: [
    (["--help"], HelpText.tool), (["-h"], HelpText.tool), (["help"], HelpText.tool),
    (["send", "--help"], HelpText.send.text), (["send", "-h", "E"], HelpText.send.text),
    (["help", "send"], HelpText.send.text), (["encode", "--help"], HelpText.encode.text),
    (["decode", "--help"], HelpText.decode.text), (["list", "--help"], HelpText.list.text),
    (["help", "list"], HelpText.list.text), (["stop", "--help"], HelpText.stop.text),
    (["status", "--help"], HelpText.status.text),
    (["alphabet", "--help"], HelpText.alphabet.text),
    (["receive", "--help"], HelpText.receive.text), (["help", "receive"], HelpText.receive.text),
    (["help", "--help"], HelpText.help.text),
  ])
  func help(_ arguments: [String], _ expected: String) throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(arguments, ledsDirectory: fixture.ledsPath)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == expected + "\n")
    #expect(outcome.standardError.isEmpty)
  }

  @Test(arguments: [
    ([], "no command"), (["blink"], "unknown command 'blink'"),
    (["--frobnicate"], "unknown option '--frobnicate'"), (["help", "blink"], "'blink'"),
    (["send", "--frobnicate", "E"], "unknown option '--frobnicate' for 'send'"),
    (["encode", "--wpm", "5", "E"], "unknown option '--wpm' for 'encode'"),
  ])
  func usageErrors(_ arguments: [String], _ message: String) throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(arguments, ledsDirectory: fixture.ledsPath)
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(outcome.standardOutput.isEmpty)
    #expect(outcome.standardError.contains(message), "\(outcome)")
  }

  @Test func unknownOptionOfTheToolGivesAdviceThatWorks() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("--frobnicate", in: fixture)
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(!outcome.standardError.contains("morsetorch morsetorch"), "\(outcome)")
  }

  @Test func decodeReadsCyrillicAndGreekWhenAsked() throws {
    let fixture = try TemporaryLEDDirectory()
    let russian = try runMorsetorch("decode", "--alphabet", "russian", "... --- ...", in: fixture)
    #expect(russian.exitStatus == 0 && russian.standardOutput == "СОС\n", "\(russian)")
    let greek = try runMorsetorch("decode", "--alphabet", "greek", "... --- ...", in: fixture)
    #expect(greek.standardOutput == "ΣΟΣ\n", "\(greek)")
    let bad = try runMorsetorch("decode", "--alphabet", "klingon", "...", in: fixture)
    #expect(bad.exitStatus == 64, "\(bad)")
    #expect(bad.standardError.contains("cyrillic"), "\(bad)")
  }

  @Test func theAlphabetHasAHomeAndErrorsPointThere() throws {
    let fixture = try TemporaryLEDDirectory()
    let alphabet = try runMorsetorch("alphabet", in: fixture)
    #expect(alphabet.exitStatus == 0, "\(alphabet)")
    let rows = alphabet.standardOutput.split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    // Every printable ASCII character but the space has a row: its signal or what it is sent as.
    for value in UInt8(0x21)...UInt8(0x7E) {
      let character = Character(UnicodeScalar(value))
      let isListed = rows.contains { $0.first == character && $0.dropFirst().first == " " }
      #expect(isListed || character.isLowercase, "\(character) has no row")
    }
    #expect(rows.contains { $0.hasPrefix("Ж") }, "Cyrillic")
    #expect(rows.contains { $0.hasPrefix("Ω") }, "Greek")
    #expect(rows.contains { $0.hasPrefix("<SK>") }, "prosigns")
    let error = try runMorsetorch("encode", "€", in: fixture)
    #expect(error.exitStatus == 65)
    #expect(error.standardError.contains("morsetorch alphabet"), "\(error)")
  }

  /// Runs `morsetorch ARGUMENTS…` with raw `bytes` on standard input.
  private func run(_ arguments: [String], bytes: [UInt8], in fixture: TemporaryLEDDirectory)
    throws -> MorsetorchProcess.Outcome
  {
    let child = try MorsetorchProcess(arguments, ledsDirectory: fixture.ledsPath)
    try child.write(bytes: bytes)
    child.closeInput()
    return try child.wait()
  }

  @Test func skipUnknownAlsoSkipsBytesThatAreNotUTF8() throws {
    let fixture = try TemporaryLEDDirectory()
    let bytes: [UInt8] = [0x61, 0xFF, 0x62, 0x0A]  // a, a stray byte, b
    let skipped = try run(["encode", "--skip-unknown"], bytes: bytes, in: fixture)
    // Before: exit 65, as without the option.
    #expect(skipped.exitStatus == 0, "\(skipped)")
    #expect(skipped.standardOutput == ".- -...\n", "\(skipped)")
    #expect(skipped.standardError.contains("not UTF-8"), "\(skipped)")
    #expect(skipped.standardError.contains("line 1, column 2"), "\(skipped)")
    let strict = try run(["encode"], bytes: bytes, in: fixture)
    #expect(strict.exitStatus == 65, "\(strict)")
    let sent = try run(
      ["send", "--dry-run", "--skip-unknown", "--unit", "1"], bytes: bytes, in: fixture)
    #expect(sent.exitStatus == 0, "\(sent)")
    #expect(sent.standardOutput.contains("b -..."), "\(sent)")
  }

  /// Before: one warning per byte, hundreds of lines for a binary file.
  @Test(arguments: [["encode", "--skip-unknown"], ["send", "--dry-run", "--skip-unknown"]])
  func aStreamSaysEachKindOfSkippedCharacterOnce(command: [String]) throws {
    let fixture = try TemporaryLEDDirectory()
    let line = Array("a😀b✓c😀".utf8) + [0xFF, 0xFF] + Array("✓\n".utf8)
    let outcome = try run(
      command, bytes: Array((0..<50).map { _ in line }.joined()), in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let warnings = outcome.standardError.split(separator: "\n")
    #expect(warnings.count == 3, "\(outcome)")
    #expect(warnings.allSatisfy { $0.contains("no further warning") }, "\(outcome)")
  }

  @Test(arguments: [["encode"], ["decode"], ["send", "--dry-run", "--unit", "1"]])
  func aByteOrderMarkAtTheStartOfInputIsIgnored(command: [String]) throws {
    let fixture = try TemporaryLEDDirectory()
    let text = command[0] == "decode" ? "... --- ...\n" : "SOS\n"
    let outcome = try run(command, bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8), in: fixture)
    // Before: U+FEFF was a character without a signal (65), or a stray code for decode.
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.isEmpty, "\(outcome)")
  }

  @Test func realLogLinesStreamWithoutOptions() throws {
    let fixture = try TemporaryLEDDirectory()
    let lines = """
      Nov 22 09:12:01 pi systemd[1]: Started session-4.scope - Session 4 of User pi.
      Nov 22 09:12:02 pi kernel: [  123.456789] usb 1-1.3: new high-speed USB device number 5 using dwc_otg
      [    2.345678] brcmfmac: brcmf_c_preinit_dcmds: Firmware: BCM4345/6 wl0: Jan  4 2021 <ver> *
      2026-11-22 09:00:01 status half-configured libc6:amd64 2.36-9+deb12u4
      pi@raspberrypi:~ $ ls | grep `x` {a,b} #1 ^C \\ ~
      """
    // Before: exit 65 at the first `[`.
    let outcome = try runMorsetorch(
      "send", "--dry-run", "--unit", "1", in: fixture, input: lines + "\n")
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.isEmpty, "\(outcome)")
  }
}
