import LinuxSystem
import Synchronization
import Testing

@testable import MorsetorchTool

/// What a writer wrote, and a gate that holds its first write (a terminal that does not read).
private final class Sink: Sendable {
  let written = Mutex<[String]>([])
  let gate = OneShotEvent()
  let isHeld = OneShotEvent()

  func write(_ text: String) {
    if written.withLock({ $0.isEmpty }) {
      isHeld.fire()
      gate.wait()
    }
    written.withLock { $0.append(text) }
  }
}

@Suite struct StreamWriterTests {
  @Test func aBlockedTerminalDropsFramesAndNeverHoldsTheProducer() throws {
    let sink = Sink()
    let writer = try StreamWriter(frameInterval: .zero) { sink.write($0) }
    writer.showFrame { _ in "frame 0" }
    sink.isHeld.wait()  // the writer is stuck in its first write
    for index in 1...1000 {
      writer.showFrame { _ in "frame \(index)" }
    }
    sink.gate.fire()
    writer.clearFrame()
    writer.flush(timeout: .seconds(10))
    let written = sink.written.withLock { $0 }.joined()
    #expect(written.hasPrefix("\rframe 0\u{1B}[K"))
    // The frames in between were replaced before they could be drawn: no queue of them.
    #expect(!written.contains("frame 500"))
    #expect(written.hasSuffix(StreamWriter.eraseLine), "\(written.debugDescription)")
  }

  @Test func aMessageErasesTheFrameAndTheFrameComesBackAfterIt() throws {
    let sink = Sink()
    sink.gate.fire()
    let writer = try StreamWriter(frameInterval: .zero) { sink.write($0) }
    writer.showFrame { _ in "progress" }
    writer.flush(timeout: .seconds(10))
    writer.write("morsetorch: a warning\n")
    writer.flush(timeout: .seconds(10))
    writer.clearFrame()
    writer.flush(timeout: .seconds(10))
    let written = sink.written.withLock { $0 }.joined()
    let erase = StreamWriter.eraseLine
    #expect(
      written.hasPrefix(
        "\rprogress\u{1B}[K" + erase + "morsetorch: a warning\n\rprogress\u{1B}[K" + erase),
      "\(written.debugDescription)")
  }
}
