import Instants
import MorseCore
import MorseTestSupport
import Testing

@testable import MorseReceiving

/// Everything a reading of `edges` classed, in the order given, and the text events among
/// them (as `"text"` entries of a log: `classed` kinds and texts interleaved).
private func classedReading(_ edges: [MorseEdge]) -> (
  classed: [MorseReceiver.Classed], log: [String]
) {
  var reading = MorseReading(receiver: MorseReceiver())
  reading.isTracing = true
  var classed: [MorseReceiver.Classed] = []
  var log: [String] = []
  func take(_ event: MorseReading.Event) {
    if case .classed(let each) = event {
      classed.append(each)
      log.append("\(each.kind)")
    }
    if case .output(.text(let text)) = event { log.append(text) }
  }
  for edge in edges { reading.read(.edge(edge), take) }
  reading.finish().forEach(take)
  return (classed, log)
}

@Suite struct MorseReceiverClassedTests {
  /// The marks classed are the edges' marks, timed as they were, dots and dashes as sent;
  /// the gaps between them in order, as sent.
  @Test(arguments: [5, 15, 30])
  func marksAndGapsAreClassedAsSentWithTheirEdgesTimes(wpm: Int) throws {
    let keyed = try edges("PARIS CQ", timing: MorseTiming(wordsPerMinute: wpm))
    let (classed, _) = classedReading(keyed)
    let marks = classed.filter(\.kind.isMark)
    let sent = stride(from: 0, to: keyed.count, by: 2).map { (keyed[$0].time, keyed[$0 + 1].time) }
    #expect(marks.map(\.start) == sent.map(\.0))
    #expect(marks.map(\.end) == sent.map(\.1))
    let code = ".--. .- .-. .. ... -.-. --.-"
    let kinds = code.map { symbol -> String in symbol == "." ? "dot" : symbol == "-" ? "dash" : "" }
      .filter { !$0.isEmpty }
    #expect(marks.map { "\($0.kind)" } == kinds)
    // Between marks: an element gap inside a letter, a letter gap between, one word gap.
    let gaps = classed.filter { !$0.kind.isMark }.map(\.kind)
    #expect(gaps.count == marks.count - 1)
    #expect(gaps.filter { $0 == .wordGap }.count == 1)
    #expect(gaps.filter { $0 == .letterGap }.count == 5)
    #expect(gaps.allSatisfy { $0 != .lineBreak })
    // In time order, each ending where the next begins.
    for (one, next) in zip(classed, classed.dropFirst()) { #expect(one.end == next.start) }
  }

  @Test func eachCharactersMarksAreGivenBeforeItsText() throws {
    let (_, log) = classedReading(try edges("EE T", timing: MorseTiming(wordsPerMinute: 20)))
    // Marks of a character before its text (the first ones late, all at once at lock).
    let firstE = try #require(log.firstIndex(of: "E"))
    #expect(log[..<firstE].contains("dot"))
    let t = try #require(log.firstIndex(of: "T"))
    #expect(log[..<t].contains("dash"))
    #expect(log.filter { $0 == "dot" }.count == 2)
  }

  @Test func withoutTracingNoClassedEventIsGivenAndNothingPilesUp() throws {
    var reading = MorseReading(receiver: MorseReceiver())
    var classed = 0
    for edge in try edges("PARIS", timing: MorseTiming(wordsPerMinute: 20)) {
      reading.read(.edge(edge)) { if case .classed = $0 { classed += 1 } }
    }
    #expect(classed == 0)
    #expect(!reading.finish().contains { if case .classed = $0 { true } else { false } })
  }

  @Test func aLongSilenceIsClassedALineBreakFromTheLastMark() throws {
    let keyed = try edges("E", timing: MorseTiming(wordsPerMinute: 20))
    var receiver = MorseReceiver()
    for edge in keyed { _ = receiver.receive(edge) }
    let last = try #require(keyed.last)
    _ = receiver.advance(to: last.time + .seconds(10))
    let classed = receiver.takeClassed()
    #expect(classed.last?.kind == .lineBreak)
    #expect(classed.last?.start == last.time)
    #expect(classed.contains { $0.kind == .dot })
  }

  /// A receiver used alone, whose marks and gaps are never taken, keeps only the last ones:
  /// its memory stays flat however long it reads.
  @Test func whatIsNeverTakenIsKeptOnlySoMuch() throws {
    var receiver = MorseReceiver()
    let timing = try MorseTiming(wordsPerMinute: 30)
    let sent = try edges(String(repeating: "PARIS ", count: 60), timing: timing)
    for edge in sent { _ = receiver.receive(edge) }
    let kept = receiver.takeClassed()
    #expect(kept.count == MorseReceiver.mostClassedKept)
    // The newest: the gap before the last mark (the mark itself waits for the debounce).
    #expect(kept.last?.end == sent[sent.count - 2].time)
  }
}
