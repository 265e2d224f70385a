import LEDDriver
import LinuxSystem
import MorseCore
import MorsePlayer
import MorseTestSupport
import Synchronization
import Testing
import TransmitterControl

@testable import MorsetorchTool

@Suite struct TerminalPreviewTests {
  @Test func framesShowTheLightAndTheCharacter() throws {
    let frames = FrameLog()
    let preview = try TerminalPreview(draw: { frames.append($0) }, width: { 80 })
    let clock = ManualStepClock()
    let transmitter = Transmitter(
      torch: preview, scheduler: StepScheduler(clock: clock, cancellation: Cancellation()),
      timing: MorseTiming(unit: .milliseconds(100)), observers: [preview])
    _ = try transmitter.send(try MorseMessage("E"))
    preview.restore()
    // Drawing runs on its own thread and may skip frames, but the last frame is always the
    // light off, followed by a newline.
    let all = frames.all
    #expect(all.last == TerminalPreview.frame(isOn: false, sending: "E  .") + "\n")
    #expect(all.allSatisfy { $0.hasPrefix("\r\u{1B}[2K") })
  }

  @Test func plainPreviewWritesOneLinePerCharacterAndNothingElse() throws {
    let frames = FrameLog()
    let preview = try TerminalPreview(isPlain: true) { frames.append($0) }
    let clock = ManualStepClock()
    let transmitter = Transmitter(
      torch: preview, scheduler: StepScheduler(clock: clock, cancellation: Cancellation()),
      timing: MorseTiming(unit: .milliseconds(100)), observers: [preview])
    _ = try transmitter.send(try MorseMessage("AB C"))
    preview.restore()
    #expect(frames.all.joined() == "A .-\nB -...\nC -.-.\n")
  }

  @Test(arguments: [1, 2, 3, 10, 30], [false, true])
  func aFrameNeverWrapsAtAnyWidth(width: Int, isOn: Bool) {
    let frame = TerminalPreview.frame(
      isOn: isOn, sending: "S  ...", status: "  [####....]  1.0 s / 4.0 s", width: width)
    #expect(frame.hasPrefix("\r\u{1B}[2K"))
    #expect(visibleText(frame).count <= width - 1, "\(width): \(frame.debugDescription)")
  }

  @Test func aNarrowFrameNarrowsTheLightThenCutsTheRest() {
    let frame = { (isOn: Bool, width: Int) in
      TerminalPreview.frame(isOn: isOn, sending: "S  ...", width: width)
    }
    #expect(frame(true, 1) == "\r\u{1B}[2K")
    #expect(frame(true, 2) == "\r\u{1B}[2K\u{1B}[7m \u{1B}[0m")
    #expect(frame(false, 3) == "\r\u{1B}[2K[]")
    #expect(frame(false, 30) == "\r\u{1B}[2K[      ]  S  ...")
    let status = "  " + String(repeating: "#", count: 40)
    #expect(
      TerminalPreview.frame(isOn: false, sending: "S  ...", status: status, width: 30)
        == "\r\u{1B}[2K[      ]  S  ...  ##########…")
  }

  @Test func theDrawnFramesFitTheTerminal() throws {
    let frames = FrameLog()
    let preview = try TerminalPreview(draw: { frames.append($0) }, width: { 3 })
    preview.set(true)
    preview.showStatus { _ in "[####....]  1.0 s / 4.0 s" }
    preview.restore()
    #expect(!frames.all.isEmpty)
    for frame in frames.all {
      #expect(visibleText(frame).count <= 2, "\(frame.debugDescription)")
    }
  }

  @Test func frameMarksTheLightOnInReverseVideo() {
    #expect(TerminalPreview.frame(isOn: true, sending: "S  ...").contains("\u{1B}[7m"))
    #expect(!TerminalPreview.frame(isOn: false, sending: "S  ...").contains("\u{1B}[7m"))
    #expect(TerminalPreview.frame(isOn: true, sending: "S  ...").hasSuffix("S  ..."))
  }
}

/// Frames drawn, collected from the drawing thread.
final class FrameLog: Sendable {
  private let frames = Mutex<[String]>([])
  func append(_ frame: String) { frames.withLock { $0.append(frame) } }
  var all: [String] { frames.withLock { $0 } }
}

/// What a frame shows: without its carriage return, line breaks and escape sequences.
func visibleText(_ frame: String) -> String {
  var text = ""
  var isInEscape = false
  for scalar in frame.unicodeScalars {
    if isInEscape {
      // A CSI sequence ends with its final byte, a letter.
      isInEscape = !(scalar.properties.isAlphabetic && scalar != "[")
    } else if scalar == "\u{1B}" {
      isInEscape = true
    } else if scalar != "\r" && scalar != "\n" {
      text.unicodeScalars.append(scalar)
    }
  }
  return text
}
