import Foundation
import Instants
import MorseCore
import MorseReceiving
import MorseTestSupport
import Testing

// `morsetorch receive --trace`, as a process.

private func run(_ arguments: [String], input: String = "") throws -> MorsetorchProcess.Outcome {
  let leds = try TemporaryLEDDirectory()
  return try MorsetorchProcess.run(arguments, ledsDirectory: leds.ledsPath, input: input)
}

/// The edges in `text`, lines of SECONDS LEVEL as `send --dry-run --edges` writes them.
private func parsedEdges(_ text: String) throws -> [MorseEdge] {
  try text.split(separator: "\n").map { line in
    let parts = line.split(separator: " ")
    let seconds = try #require(Double(parts[0]))
    return MorseEdge(time: .origin + .seconds(seconds), isOn: parts[1] == "1")
  }
}

@Suite("receive --trace, as a process")
struct ReceiveTraceTests {
  @Test func theTracesMarksAreTheEdgesRead() throws {
    let directory = try TemporaryDirectory("morsetorch-trace")
    let sent = try run(["send", "--dry-run", "--edges", "--wpm", "18", "PARIS CQ"])
    let edgesPath = directory.path + "/edges"
    try sent.standardOutput.write(toFile: edgesPath, atomically: true, encoding: .utf8)
    let svgPath = directory.path + "/read.svg"
    let read = try run(["receive", "--edges", edgesPath, "--trace", svgPath])
    #expect(read.exitStatus == 0, "\(read)")
    #expect(read.standardOutput == "PARIS CQ\n", "\(read)")
    let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
    let edges = try parsedEdges(sent.standardOutput)
    let end =
      Double(try #require(edges.last).time.sinceOrigin.components.seconds)
      + Double(try #require(edges.last).time.sinceOrigin.components.attoseconds) / 1e18
    let marks = (segments(of: "dot", in: svg) + segments(of: "dash", in: svg)).sorted {
      $0.x < $1.x
    }
    let expected = expectedMarks(edges, scale: 1200 / end)
    #expect(marks.count == expected.count && marks.count == 22)
    for (mark, edge) in zip(marks, expected) {
      #expect(
        abs(mark.x - edge.x) <= 0.06 && abs(mark.width - edge.width) <= 0.11, "\(mark) \(edge)")
    }
    #expect(segments(of: "word-gap", in: svg).count == 1)
  }

  @Test func aTraceThatCannotBeCreatedIs73BeforeAnythingIsRead() throws {
    let edges = try run(["send", "--dry-run", "--edges", "EE"]).standardOutput
    let read = try run(
      ["receive", "--edges", "-", "--trace", "/nonexistent/read.svg"], input: edges)
    #expect(read.exitStatus == 73, "\(read)")
    #expect(read.standardOutput.isEmpty, "\(read)")
    #expect(
      read.standardError.contains("cannot create /nonexistent/read.svg for --trace"), "\(read)")
  }

  @Test func aSymlinkOrAFIFOIsRefusedAndLeftAlone() throws {
    let directory = try TemporaryDirectory("morsetorch-trace")
    let target = directory.path + "/target"
    try "kept\n".write(toFile: target, atomically: true, encoding: .utf8)
    let link = directory.path + "/link.svg"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let fifo = directory.path + "/fifo.svg"
    #expect(mkfifo(fifo, 0o644) == 0)
    for path in [link, fifo] {
      let read = try run(["receive", "--edges", "-", "--trace", path], input: "0 1\n0.1 0\n")
      #expect(read.exitStatus == 73, "\(read)")
      #expect(read.standardOutput.isEmpty, "\(read)")
      #expect(read.standardError.contains("not a regular file"), "\(read)")
    }
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "kept\n")
  }

  @Test func toStandardOutputTheTraceIsAllThatIsWritten() throws {
    let edges = try run(["send", "--dry-run", "--edges", "--wpm", "20", "SOS"]).standardOutput
    let read = try run(["receive", "--edges", "-", "--trace", "-"], input: edges)
    #expect(read.exitStatus == 0, "\(read)")
    #expect(read.standardOutput.hasPrefix("<?xml"), "\(read)")
    #expect(read.standardOutput.hasSuffix("</svg>\n"), "\(read)")
    #expect(read.standardOutput.contains("\">S</text>"), "\(read)")
    #expect(!read.standardOutput.contains("SOS"), "\(read)")
  }

  @Test func aVideosTraceShowsWhereTheLightWasFound() throws {
    let directory = try TemporaryDirectory("morsetorch-trace")
    var scene = SyntheticScene()
    scene.hasHeartbeat = true
    let timing = try MorseTiming(wordsPerMinute: 15)
    let edges = MorseEdge.edges(of: MorseSteps(try MorseMessage("CQ"), timing: timing))
    let video = directory.path + "/clip.y4m"
    try Data(Y4MWriting.bytes(of: scene.frames(showing: edges))).write(
      to: URL(fileURLWithPath: video))
    let svgPath = directory.path + "/clip.svg"
    let read = try run(["receive", "--video", video, "--trace", svgPath])
    #expect(read.exitStatus == 0, "\(read)")
    #expect(read.standardOutput == "CQ\n", "\(read)")
    let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
    #expect(svg.contains("<rect class=\"found\""))
    #expect(svg.contains("a light in frames"))
    #expect(segments(of: "dash", in: svg).count == 5 && segments(of: "dot", in: svg).count == 3)
  }

  @Test func aSignalStillLeavesTheTraceOfWhatWasRead() throws {
    let directory = try TemporaryDirectory("morsetorch-trace")
    let svgPath = directory.path + "/line.svg"
    let outcome = try receiveAnETermed(["--trace", svgPath])
    #expect(outcome.exitStatus == 143, "\(outcome)")
    let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
    #expect(segments(of: "dot", in: svg).count == 1)
    #expect(svg.contains("\">E</text>"))
  }
}
