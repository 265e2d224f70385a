import Foundation
import Instants
import MorseCore
import MorseReceiving
import MorseTestSupport
import ReceiveSources
import Synchronization
import Testing

@testable import MorsetorchTool

// The fake source lives here, not in Tests/Support: `ReceiveSource` is the tool's own
// (internal) protocol, which only a test target that imports the tool @testable can see.

/// A source that gives what it was made with, then ends (or throws), and records its close.
private final class ManualReceiveSource: ReceiveSource {
  let kind: ReceiveSourceKind
  private var inputs: [MorseReading.Input]
  private let failure: (any Error)?
  private let closeFailure: (any Error)?
  private let notes: [String]
  private(set) var closes = 0

  init(
    _ kind: ReceiveSourceKind, inputs: [MorseReading.Input], failure: (any Error)? = nil,
    closeFailure: (any Error)? = nil, notes: [String] = []
  ) {
    self.kind = kind
    self.inputs = inputs
    self.failure = failure
    self.closeFailure = closeFailure
    self.notes = notes
  }

  func next() throws -> MorseReading.Input? {
    guard !inputs.isEmpty else {
      if let failure { throw failure }
      return nil
    }
    return inputs.removeFirst()
  }

  func endingNotes() -> [String] { notes }

  func close() throws {
    closes += 1
    if let closeFailure { throw closeFailure }
  }
}

/// Edges made as they are read, never held whole.
private final class LazyEdgeSource<Edges: IteratorProtocol<MorseEdge>>: ReceiveSource {
  let kind = ReceiveSourceKind.edges
  private var edges: Edges

  init(_ edges: Edges) { self.edges = edges }

  func next() throws -> MorseReading.Input? { edges.next().map { .edge($0) } }
}

/// What a loop wrote and noted, in place of the standard streams.
private final class RecordingReceiveConsole: Sendable {
  private let written = Mutex("")
  private let notes = Mutex<[String]>([])

  var text: String { written.withLock { $0 } }
  var noted: [String] { notes.withLock { $0 } }

  var console: ReceiveConsole {
    ReceiveConsole(
      write: { text in self.written.withLock { $0 += text } },
      note: { note in self.notes.withLock { $0.append(note) } }, hasOutputFailed: { false })
  }
}

private struct Broken: Error, CustomStringConvertible {
  let description: String
}

private func picture(_ width: Int, _ height: Int) -> ReceivedPicture {
  ReceivedPicture(
    width: width, height: height, frameInterval: .milliseconds(40), origin: .camera,
    openingNote: "fake opened")
}

private func loop(region: LightRegion? = nil, _ recording: RecordingReceiveConsole) -> ReceiveLoop {
  var light = LightReceiver.Settings()
  light.region = region
  return ReceiveLoop(
    settings: MorseReceiver.Settings(), light: light, recorder: nil, trace: nil,
    console: recording.console)
}

@Suite struct ReceiveLoopTests {
  @Test func aSourceOfEdgesIsReadToItsEndPrintedAndClosedOnce() throws {
    let edges = MorseEdge.edges(
      of: MorseSteps(try MorseMessage("CQ CQ"), timing: try MorseTiming(wordsPerMinute: 15)))
    let source = ManualReceiveSource(
      .edges, inputs: edges.map { .edge($0) }, notes: ["fake ended"])
    let recording = RecordingReceiveConsole()
    #expect(try loop(recording).run(source) == 4)
    #expect(recording.text == "CQ CQ\n")
    #expect(recording.noted == ["fake ended"])
    #expect(source.closes == 1)
  }

  @Test func manyCodesWithNoMeaningAreSaidDoubtfulAtTheEndOnceWithWhatToTry() throws {
    let dot = Duration.milliseconds(80)
    var edges: [MorseEdge] = []
    var time = MonotonicInstant.origin + .seconds(1)
    for code in ["-..-..-", "-..-..-", "-..-..-", "-", "."] {
      for element in code {
        edges += [MorseEdge(time: time, isOn: true)]
        time = time + (element == "-" ? dot * 3 : dot)
        edges += [MorseEdge(time: time, isOn: false)]
        time = time + dot
      }
      time = time + dot * 2
    }
    let source = ManualReceiveSource(.edges, inputs: edges.map { .edge($0) })
    let recording = RecordingReceiveConsole()
    #expect(try loop(recording).run(source) == 5)
    #expect(recording.text == "[-..-..-][-..-..-][-..-..-]TE\n")
    #expect(recording.noted.count == 1, "said once: \(recording.noted)")
    #expect(recording.noted.first?.hasPrefix("doubtful: 3 of the 5 characters") == true)
    #expect(recording.noted.first?.contains("--trace") == true)
  }

  @Test func aRegionOutsideThePictureIsAUsageErrorNamingItAndTheSourceIsClosed() throws {
    let source = ManualReceiveSource(.frames(picture(32, 24)), inputs: [])
    let recording = RecordingReceiveConsole()
    let region = try #require(LightRegion(x: 30, y: 0, width: 4, height: 4))
    #expect(
      throws: UsageError.invalidValue(
        option: "--region", value: "30,0,4,4",
        expected: "a region inside the camera's 32x24 picture")
    ) { try loop(region: region, recording).run(source) }
    #expect(source.closes == 1)
    #expect(recording.noted.isEmpty)
  }

  @Test func aSourceOfFramesThatGivesNoneIsSaidSoAfterItsOpeningNote() throws {
    let source = ManualReceiveSource(.frames(picture(32, 24)), inputs: [])
    let recording = RecordingReceiveConsole()
    #expect(try loop(recording).run(source) == 0)
    #expect(recording.noted == ["fake opened", "the camera gave no frame"])
    #expect(recording.text.isEmpty)
  }

  @Test func aTraceCutAtItsBoundIsSaidOnceAndWrittenWithTheLineThatSaysSo() throws {
    let directory = try TemporaryDirectory("morsetorch-loop")
    let path = directory.path + "/long.svg"
    let recording = RecordingReceiveConsole()
    let loop = ReceiveLoop(
      settings: MorseReceiver.Settings(), light: LightReceiver.Settings(), recorder: nil,
      trace: try TraceFile(path: path), console: recording.console)
    // 150 000 pulses: 300 000 edges, 600 000 levels, past the bound (250 000).
    let read = try loop.run(LazyEdgeSource(try parisPulses(150_000).makeIterator()))
    #expect(read > 50_000)
    let notes = recording.noted.filter {
      $0.hasPrefix("--trace keeps at most \(ReceiveTrace.keptLevels) levels: from ")
    }
    #expect(notes.count == 1, "\(recording.noted)")
    let note = try #require(notes.first)
    let svg = try String(contentsOfFile: path, encoding: .utf8)
    #expect(svg.contains(">Not drawn: \(note).</text>\n</svg>\n"))
  }

  @Test func aFailedReadIsThrownWithTheFailedCloseNotedAndWhatWasReadPrinted() throws {
    let edges = MorseEdge.edges(
      of: MorseSteps(try MorseMessage("TEST TEST"), timing: try MorseTiming(wordsPerMinute: 15)))
    let source = ManualReceiveSource(
      .edges, inputs: edges.map { .edge($0) }, failure: Broken(description: "read broke"),
      closeFailure: Broken(description: "close broke"))
    let recording = RecordingReceiveConsole()
    #expect(throws: Broken.self) { try loop(recording).run(source) }
    #expect(recording.text == "TEST TEST\n")
    #expect(recording.noted == ["close broke"])
    #expect(source.closes == 1)
  }
}
