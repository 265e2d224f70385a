import Instants
import MorseCore
import MorseCorpus
import Testing

@testable import MorseReceiving

// A file read whole, by the sender's own timing: the kinds of sender that the speed followed
// read wrong (issue 41), made from their lengths as a receiver measured them. Each failed
// with the timing followed (`LookAhead.followed`, the reading before).

/// The edges of `codes` (characters' dots and dashes, " " between words) with each length
/// drawn by `length` (for a mark, a gap inside a character, a letter gap, a word gap).
private func keyed(
  _ codes: [String], random: inout SplitMix64,
  length: (_ kind: SenderTiming.Class, _ random: inout SplitMix64) -> Double
) -> [MorseEdge] {
  var edges: [MorseEdge] = []
  var time = MonotonicInstant.origin + .seconds(1)
  for (index, code) in codes.enumerated() {
    if code == " " { continue }
    for (elementIndex, element) in code.enumerated() {
      let isDash = element == "-"
      edges.append(MorseEdge(time: time, isOn: true))
      time += .seconds(length(isDash ? .dash : .dot, &random))
      edges.append(MorseEdge(time: time, isOn: false))
      if elementIndex < code.count - 1 {
        time += .seconds(length(.inside(afterDash: isDash), &random))
      }
    }
    let isWordNext = index + 1 < codes.count && codes[index + 1] == " "
    time += .seconds(length(isWordNext ? .wordGap : .letterGap, &random))
  }
  return edges
}

/// The codes of `text`, " " between words.
private func codes(_ text: String) throws -> [String] {
  try text.split(separator: " ", omittingEmptySubsequences: false).enumerated().flatMap {
    index, word in
    let letters = try word.map { character in
      try #require(MorseAlphabet.code(for: character)).description
    }
    return index == 0 ? letters : [" "] + letters
  }
}

/// A value drawn evenly from `range`.
private func drawn(_ range: ClosedRange<Double>, _ random: inout SplitMix64) -> Double {
  Double.random(in: range, using: &random)
}

/// `text` from a lamp whose light rises and falls slowly, at about 2.5 WPM, as a threshold
/// half way up times it: marks 0.31 and 0.96 s, gaps 0.65 and 1.29 s (word gaps 3 s), each
/// off by up to `jitter`.
private func slowLamp(_ text: String, jitter: Double, random: inout SplitMix64) throws
  -> [MorseEdge]
{
  keyed(try codes(text), random: &random) { kind, random in
    let middle: Double =
      switch kind {
      case .dot: 0.31
      case .dash: 0.96
      case .insideAfterDot, .insideAfterDash: 0.65
      case .letterGap: 1.29
      case .wordGap: 3.0
      }
    return middle * drawn((1 - jitter)...(1 + jitter), &random)
  }
}

/// Settings that read a file: a line at a time, whole.
private func whole(_ configure: (inout MorseReceiver.Settings) -> Void = { _ in })
  -> MorseReceiver.Settings
{
  var settings = MorseReceiver.Settings()
  settings.lookAhead = .wholeLine
  configure(&settings)
  return settings
}

@Suite struct TimingLearnerTests {
  /// A lamp whose light rises and falls slowly, at about 2.5 WPM, one word: the threshold
  /// cut each mark short and stretched each gap, so that a gap inside a letter is two of its
  /// dots and a letter gap four (marks 0.31 and 0.96 s, gaps 0.65 and 1.29 s).
  @Test(arguments: ["WHAT", "HELLO", "SOS", "MORSE", "PARIS"])
  func aSlowLampsGapsAreReadByItsOwnTiming(text: String) throws {
    var random = SplitMix64(state: 41)
    let edges = try slowLamp(text, jitter: 0.07, random: &random)
    #expect(textReceived(from: edges, settings: whole()) == text + "\n")
  }

  /// What a trace draws is what was read: each mark and gap in the class the reading by the
  /// sender's timing gave it, the gaps inside letters of the slow lamp as such (the speed
  /// followed took them for letter gaps), each character's marks before its text.
  @Test func theClassesGivenAreTheFinalReadings() throws {
    var random = SplitMix64(state: 7)
    let edges = try slowLamp("WHAT", jitter: 0.05, random: &random)
    var receiver = MorseReceiver(settings: whole())
    var outputs: [MorseReceiver.Output] = []
    for edge in edges { outputs += receiver.receive(edge) }
    #expect(outputs.isEmpty)
    outputs += receiver.finish()
    #expect(outputs == [.text("W"), .text("H"), .text("A"), .text("T"), .lineBreak])
    let kinds = receiver.takeClassed().map(\.kind)
    let marks = kinds.filter(\.isMark)
    #expect(marks == [.dot, .dash, .dash, .dot, .dot, .dot, .dot, .dot, .dash, .dash])
    #expect(kinds.filter { $0 == .elementGap }.count == 6)
    #expect(kinds.filter { $0 == .letterGap }.count == 3)
    #expect(!kinds.contains(.wordGap))
  }

  /// A sender two and a half times as fast after a word gap, in one line, for enough marks
  /// to learn from (`HeldLine.shortestStretch`): each speed's timing is learned from its own
  /// marks and gaps.
  @Test func aSenderChangingSpeedInALineIsReadAtEachSpeed() throws {
    let slow = try edges("CQ CQ DE N0CALL", timing: try MorseTiming(wordsPerMinute: 12))
    let start = try #require(slow.last).time + .milliseconds(700)
    let fast = MorseEdge.edges(
      of: MorseSteps(
        try MorseMessage("TEST ME 73 TEST ME 73"), timing: try MorseTiming(wordsPerMinute: 30)),
      from: start)
    let read = textReceived(from: slow + fast, settings: whole())
    #expect(read == "CQ CQ DE N0CALL TEST ME 73 TEST ME 73\n")
  }

  /// A hand filmed at 30 fps: dots of 2 frames, dashes of 5-10, gaps inside a letter of 1.4-4,
  /// letter gaps of 11-16 (five or six dots) and no word gap in the whole message; a first
  /// dash of 5 frames with the gap after it 4.
  @Test(arguments: [UInt64(1), 2, 3, 4])
  func aHandWithLongLetterGapsAndNoWordGapIsReadAsOneWord(seed: UInt64) throws {
    var random = SplitMix64(state: seed)
    let frame = 1.0 / 30
    for text in ["MASATO", "OKAYTHEN", "WHEREISIT", "GOODMORNING"] {
      let edges = keyed(try codes(text), random: &random) { kind, random in
        let frames: Double =
          switch kind {
          case .dot: drawn(1.7...2.3, &random)
          case .dash: drawn(5...10, &random)
          case .insideAfterDot, .insideAfterDash: drawn(1.4...4, &random)
          case .letterGap: drawn(11...16, &random)
          case .wordGap: 40
          }
        return frames * frame
      }
      #expect(textReceived(from: edges, settings: whole()) == text + "\n", "seed \(seed)")
    }
  }

  /// Farnsworth spacing (characters at 20 WPM, gaps stretched to 15), with no hint: the first
  /// words are not split into letters.
  @Test(arguments: [(20, 15), (20, 10), (25, 12), (18, 8)])
  func farnsworthSpacingIsFoundWithoutAHint(speeds: (Int, Int)) throws {
    let timing = try MorseTiming(wordsPerMinute: speeds.0, farnsworth: speeds.1)
    let text = "CQ CQ DE N0CALL K"
    let sent = MorseEdge.edges(of: MorseSteps(try MorseMessage(text), timing: timing))
    #expect(textReceived(from: sent, settings: whole()) == text + "\n")
  }

  /// A hint is where the reading starts from, on a file too: a lone `E` and `T` cannot show
  /// their speed, and `--wpm` says it.
  @Test func theHintDecidesWhatTheLengthsCannot() throws {
    let timing = try MorseTiming(wordsPerMinute: 5)
    let sent = MorseEdge.edges(of: MorseSteps(try MorseMessage("T"), timing: timing))
    let atFive = whole { $0.wordsPerMinute = 5 }
    let atOne = whole { $0.wordsPerMinute = 1 }
    #expect(textReceived(from: sent, settings: atFive) == "T\n")
    #expect(textReceived(from: sent, settings: atOne) == "E\n")
  }

  /// Clean sending at any speed, with any hint, reads as the timing followed does.
  @Test(arguments: [5, 12, 20, 35, 50])
  func cleanSendingReadsExactly(wpm: Int) throws {
    let timing = try MorseTiming(wordsPerMinute: wpm)
    for text in MorseReceiverTests.texts {
      let sent = MorseEdge.edges(of: MorseSteps(try MorseMessage(text), timing: timing))
      #expect(textReceived(from: sent, settings: whole()) == text + "\n")
    }
  }

  /// The groups one-dimensional k-means finds are the lengths' own.
  @Test func groupsAreTheValuesOwn() throws {
    let values = [1.0, 1.1, 0.9, 3.0, 3.2, 2.9, 7.0, 7.1].sorted()
    let three = try #require(TimingLearner.groups(values, count: 3))
    #expect(abs(three[0] - 1) < 0.01 && abs(three[1] - 3.033) < 0.01 && abs(three[2] - 7.05) < 0.01)
    #expect(TimingLearner.groups([1.0], count: 2) == nil)
  }
}

@Suite struct LetterSharesTests {
  /// The exponential undoes the logarithm, over the lengths a reading meets.
  @Test(arguments: [1e-4, 0.02, 0.5, 1, 3, 7.5, 60, 1e4])
  func theExponentialUndoesTheLogarithm(value: Double) {
    let back = LetterShares.exponential(LetterShares.naturalLog(value))
    #expect(abs(back - value) / value < 1e-9)
  }
}
