import Instants
import MorseCore
import Testing

@testable import MorseReceiving

/// Edge text with all that a line can be: comments (one long, one with UTF-8 in it), blank
/// lines, spaces, tabs, a carriage return, and a last line with no newline.
private let sample =
  "# from a light sensor: \u{e9}t\u{e9}\n\n  0.5 1\n0.56 0\r\n\t# "
  + String(repeating: "c", count: 9000) + "\n   \t\n0.62 1\n#\n0.8 0\n1.25 1\n1.3 0"

/// What reading `text` line by line with `EdgeText.parse` gives: the edges, and the problem
/// that stopped it, if one did.
private func linesRead(_ text: String) -> ([MorseEdge], EdgeText.Problem?) {
  var edges: [MorseEdge] = []
  // Split as bytes: as characters, "\r\n" is one, and no "\n".
  let lines = Array(text.utf8).split(
    separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
  for (index, bytes) in lines.enumerated() {
    let line = String(decoding: bytes, as: UTF8.self)
    do {
      if let edge = try EdgeText.parse(line[...], number: index + 1, after: edges.last) {
        edges.append(edge)
      }
    } catch {
      return (edges, error)
    }
  }
  return (edges, nil)
}

/// What an `EdgeTextReader` gives for `text` appended in blocks of `size` bytes.
private func blocksRead(_ text: String, size: Int) -> ([MorseEdge], EdgeText.Problem?) {
  var reader = EdgeTextReader()
  var edges: [MorseEdge] = []
  let bytes = Array(text.utf8)
  do throws(EdgeText.Problem) {
    for start in stride(from: 0, to: bytes.count, by: size) {
      reader.append(bytes[start..<min(start + size, bytes.count)])
      while let edge = try reader.next() { edges.append(edge) }
    }
    reader.end()
    while let edge = try reader.next() { edges.append(edge) }
  } catch {
    return (edges, error)
  }
  return (edges, nil)
}

@Suite struct EdgeTextReaderTests {
  @Test(arguments: [1, 2, 3, 7, 64, 4095, 4096, 65_536])
  func blocksCutAnywhereReadAsLinesDo(size: Int) {
    let (edges, problem) = blocksRead(sample, size: size)
    let expected = linesRead(sample)
    #expect(expected.0.count == 6 && expected.1 == nil)
    #expect(edges == expected.0)
    #expect(problem == nil)
  }

  @Test(arguments: [1, 5, 4096])
  func aBadLineIsNamedByItsNumberAfterTheEdgesBeforeIt(size: Int) {
    let text = sample + "\n1.2 1\n"
    let (edges, problem) = blocksRead(text, size: size)
    let expected = linesRead(text)
    #expect(problem?.line == 12)
    #expect(problem == expected.1)
    #expect(edges == expected.0)
  }

  @Test(arguments: [100, 65_536])
  func aCommentOfAHundredKibibytesIsSkipped(size: Int) {
    let text = "# " + String(repeating: "x", count: 100 * 1024) + "\n0 1\n0.06 0\n"
    let (edges, problem) = blocksRead(text, size: size)
    #expect(problem == nil)
    #expect(
      edges == [
        MorseEdge(time: .origin, isOn: true), MorseEdge(time: .origin + .milliseconds(60), isOn: false),
      ])
  }

  @Test func anEdgeLineLongerThanTheLimitIsRefused() {
    let text = "0 1\n  1 0" + String(repeating: " ", count: EdgeText.lineLimit) + "\n"
    let (edges, problem) = blocksRead(text, size: 512)
    #expect(edges == [MorseEdge(time: .origin, isOn: true)])
    #expect(problem?.line == 2)
    #expect(problem?.reason.hasPrefix("longer than 4096 bytes") == true)
  }

  @Test func anEdgeLineOfTheLimitIsRead() {
    let text = "0 1\n1 0" + String(repeating: " ", count: EdgeText.lineLimit - 3) + "\n"
    let (edges, problem) = blocksRead(text, size: 100)
    #expect(problem == nil)
    #expect(edges.count == 2)
  }
}
