import Foundation
import Glibc
import MorseTestSupport
import Testing

// `send --preview` and the advice for a machine without LEDs, as a process.

let hasScript = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

@Suite("send --preview, and no LED at all")
struct PreviewTests {
  @Test(.enabled(if: hasScript))
  func previewDrawsTheLightInTheTerminalAndNeedsNoLED() throws {
    let fixture = try TemporaryLEDDirectory()
    try FileManager.default.removeItem(atPath: fixture.ledsPath)
    let outcome = try MorsetorchProcess.run(
      ["send", "--preview", "--unit", "20", "ET"], ledsDirectory: fixture.ledsPath,
      launch: .underTerminal)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    // Frames redraw one line: erase it, then the light and what is being sent.
    #expect(outcome.standardOutput.contains("\r\u{1B}[2K"), "\(outcome)")
    #expect(outcome.standardOutput.contains("T  -"), "\(outcome)")
    // The last frame is the light off and the progress, then the line ends (the terminal
    // adds a \r).
    let lastFrame = outcome.standardOutput.components(separatedBy: "\r\u{1B}[2K").last ?? ""
    #expect(lastFrame.hasPrefix("[      ]  T  -  [####################]"), "\(outcome)")
    #expect(lastFrame.hasSuffix(" 2/2 characters\r\n"), "\(outcome)")
  }

  @Test func previewIntoAPipeWritesOnePlainLinePerCharacter() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      ["send", "--preview", "--unit", "5", "SOS E"], ledsDirectory: fixture.ledsPath)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == "S ...\nO ---\nS ...\nE .\n", "\(outcome)")
  }

  @Test(.enabled(if: hasScript))
  func previewOnADumbTerminalWritesNoEscapeSequences() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      ["send", "--preview", "--unit", "5", "ET"], ledsDirectory: fixture.ledsPath,
      environment: ["TERM": "dumb"], launch: .underTerminal)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(!outcome.standardOutput.contains("\u{1B}"), "\(outcome)")
    // The terminal turns each \n into \r\n; morsetorch itself writes no \r.
    #expect(outcome.standardOutput == "E .\r\nT -\r\n", "\(outcome)")
  }

  /// Text typed at the terminal (issue 31): how to end it is said, and no progress line is
  /// drawn where the user types (nor left behind after Ctrl-D).
  @Test(.enabled(if: hasScript))
  func textTypedAtTheTerminalIsNotDrawnOverAndCtrlDEndsIt() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED("white:flash", trigger: "[none] timer")
    let outcome = try MorsetorchProcess.run(
      ["send", "--unit", "5", "--led", "white:flash"], ledsDirectory: fixture.ledsPath,
      input: "ee\n\u{04}", launch: .underTerminal)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput.contains("Ctrl-D ends the input"), "\(outcome)")
    #expect(!outcome.standardOutput.contains("\u{1B}["), "\(outcome)")
    #expect(try fixture.read("trigger", of: "white:flash") == "[none] timer\n")
  }

  @Test(.enabled(if: hasScript))
  func withoutLEDsAndWithATerminalTheLightIsShownThere() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      ["send", "--unit", "5", "SOS"], ledsDirectory: fixture.ledsPath, launch: .underTerminal)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let notice = "no LED here: showing the light in this terminal instead (--preview)"
    #expect(outcome.standardOutput.hasPrefix("morsetorch: \(notice)\r\n"), "\(outcome)")
    #expect(outcome.standardOutput.contains("O  ---"), "\(outcome)")
  }

  @Test func previewStopsOnAnySignalThatWouldEndTheProcess() throws {
    let fixture = try TemporaryLEDDirectory()
    let child = try MorsetorchProcess(
      ["send", "--preview", "--unit", "500", "TTTT"], ledsDirectory: fixture.ledsPath)
    child.closeInput()
    // Not a fixed pause: on a slow machine (tests under qemu-aarch64) the handlers may not be
    // in place yet, and SIGQUIT's default action would end the child. The first line drawn
    // comes after them.
    let isDrawing = eventually(within: .seconds(20)) { !child.standardOutputSoFar.isEmpty }
    try #require(isDrawing, "the preview never drew anything")
    child.send(signal: SIGQUIT)
    let outcome = try child.wait(timeout: .seconds(20))
    #expect(outcome.exitStatus == 128 + SIGQUIT, "\(outcome)")
    #expect(outcome.standardError.contains("stopped by SIGQUIT; preview ended"), "\(outcome)")
  }

  @Test(.enabled(if: hasScript))
  func withoutLEDsAndWithATerminalSendPointsToLedAndPreview() throws {
    // An LED was named, so no preview instead: the advice.
    let fixture = try TemporaryLEDDirectory()
    try FileManager.default.removeItem(atPath: fixture.ledsPath)
    let outcome = try MorsetorchProcess.run(
      ["send", "--led", "white:flash", "SOS"], ledsDirectory: fixture.ledsPath,
      launch: .underTerminal)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardOutput.contains("no LED to send on here"), "\(outcome)")
    #expect(outcome.standardOutput.contains("--led NAME"), "\(outcome)")
    #expect(outcome.standardOutput.contains("--preview"), "\(outcome)")
  }

  /// From a script: no light drawn in place of the LED, the error and one line of what to
  /// do instead, as `list` says it (before: the error alone).
  @Test func withoutLEDsAndWithoutATerminalTheErrorSaysTheWayOnInOneLine() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(["send", "SOS"], ledsDirectory: fixture.ledsPath)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardOutput.isEmpty, "\(outcome)")
    let lines = outcome.standardError.split(separator: "\n")
    #expect(lines.count == 2, "\(outcome)")
    #expect(lines.last?.hasPrefix("Without an LED, `morsetorch send --preview SOS`") == true)
  }
}
