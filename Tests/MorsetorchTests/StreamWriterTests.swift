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

  /// What a writer to a terminal that reads writes for `steps`, each written before the next.
  private func written(_ steps: [(StreamWriter) -> Void]) throws -> String {
    let sink = Sink()
    sink.gate.fire()
    let writer = try StreamWriter(frameInterval: .zero) { sink.write($0) }
    for step in steps {
      step(writer)
      writer.flush(timeout: .seconds(10))
    }
    return sink.written.withLock { $0 }.joined()
  }

  @Test func aMessageErasesTheFrameAndTheFrameComesBackAfterIt() throws {
    let written = try written([
      { $0.showFrame { _ in "progress" } }, { $0.write("morsetorch: a warning\n") },
      { $0.clearFrame() },
    ])
    let erase = StreamWriter.eraseLine
    #expect(
      written.hasPrefix(
        "\rprogress\u{1B}[K" + erase + "morsetorch: a warning\n\rprogress\u{1B}[K" + erase),
      "\(written.debugDescription)")
  }

  @Test func aFrameOfSeveralLinesIsRedrawnFromItsFirstLineAndErasedWhole() throws {
    let written = try written([
      { $0.showFrame { _ in "a\nb\nc" } }, { $0.showFrame { _ in "d\ne" } }, { $0.write("note\n") },
      { $0.clearFrame() },
    ])
    let (erase, up) = ("\u{1B}[K", { (lines: Int) in "\u{1B}[\(lines)A" })
    #expect(
      written.hasPrefix(
        "\ra\(erase)\nb\(erase)\nc\(erase)"
          // Two lines up, the shorter frame over it, the line left below erased.
          + up(2) + "\rd\(erase)\ne\(erase)\u{1B}[J"
          // Erased from its first line down for the note, drawn again below it.
          + StreamWriter.erase(lines: 1) + "note\n\rd\(erase)\ne\(erase)"
          + StreamWriter.erase(lines: 1)),
      "\(written.debugDescription)")
    #expect(StreamWriter.erase(lines: 1) == "\r" + up(1) + "\u{1B}[J")
  }
}
