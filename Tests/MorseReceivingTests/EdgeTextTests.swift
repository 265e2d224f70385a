import Instants
import MorseCore
import Testing

@testable import MorseReceiving

@Suite struct EdgeTextTests {
  private func parse(_ lines: [String]) throws(EdgeText.Problem) -> [MorseEdge] {
    var edges: [MorseEdge] = []
    for (index, line) in lines.enumerated() {
      if let edge = try EdgeText.parse(line[...], number: index + 1, after: edges.last) {
        edges.append(edge)
      }
    }
    return edges
  }

  @Test func edgesCommentsAndBlankLines() throws {
    let edges = try parse(["# from a light sensor", "", "  12 1", "12.06 0\r", "\t12.120000 1"])
    #expect(
      edges == [
        MorseEdge(time: .origin + .seconds(12), isOn: true),
        MorseEdge(time: .origin + .milliseconds(12_060), isOn: false),
        MorseEdge(time: .origin + .milliseconds(12_120), isOn: true),
      ])
  }

  @Test(arguments: [
    (["1 1", "x 0"], 2, "\"x\" is not a time in seconds"),
    (["1 1", "2 on"], 2, "the level \"on\" is not 0 or 1"),
    (["1 1", "1 0"], 2, "1 s does not come after the edge before it (times must increase)"),
    (["1"], 1, "expected SECONDS LEVEL, found \"1\""),
    (["-1 1"], 1, "\"-1\" is not a time in seconds"),
    (["1e3 1"], 1, "\"1e3\" is not a time in seconds"),
    (["-0.5 1"], 1, "\"-0.5\" is not a time in seconds"),
    (["+1 1"], 1, "\"+1\" is not a time in seconds"),
    (["1.2.3 1"], 1, "\"1.2.3\" is not a time in seconds"),
    (["1.0000000001x 1"], 1, "\"1.0000000001x\" is not a time in seconds"),
    ([". 1"], 1, "\".\" is not a time in seconds"),
    (
      ["# a comment", "", "0.5 1", "0.7 0", "0.6 1"], 5,
      "0.6 s does not come after the edge before it (times must increase)"
    ),
    (["1 1 1"], 1, "expected SECONDS LEVEL, found \"1 1 1\""),
  ])
  func eachProblemNamesItsLine(lines: [String], line: Int, reason: String) {
    #expect(throws: EdgeText.Problem(line: line, reason: reason)) { _ = try parse(lines) }
  }

  @Test func decimalForms() throws {
    let edges = try parse(["0 1", ".25 0", "1. 1", "1.000000001 0", "2.1234567891 1"])
    #expect(
      edges.map(\.time.sinceOrigin) == [
        .zero, .milliseconds(250), .seconds(1), .seconds(1) + .nanoseconds(1),
        .seconds(2) + .nanoseconds(123_456_789),
      ])
  }

  @Test func formatAndParseRoundTripToTheMicrosecond() throws {
    let edges = MorseEdge.edges(
      of: MorseSteps(try MorseMessage("PARIS"), timing: try MorseTiming(wordsPerMinute: 13)),
      from: .origin + .seconds(1234))
    let lines = edges.map(EdgeText.format)
    #expect(lines.first == "1234.000000 1")
    let read = try parse(lines)
    for (sent, got) in zip(edges, read) {
      #expect(sent.isOn == got.isOn)
      #expect(abs(((sent.time - got.time) / .nanoseconds(1))) < 1000)
    }
  }
}
