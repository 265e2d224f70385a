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
    let preview = try TerminalPreview { frames.append($0) }
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
