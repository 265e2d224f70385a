import Instants
import MorseCore
import MorseCorpus
import Testing

@testable import MorseReceiving

// A file read whole, and a live source read as it comes, a few characters held back, by the
// sender's own timing: the kinds of sender that the speed followed read wrong (issue 41),
// made from their lengths as a receiver measured them. Each failed with the timing followed
// (`LookAhead.followed`, the reading before).

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

/// Settings that read a file (a line at a time, whole), or with `lookAhead`.
private func whole(
  _ lookAhead: MorseReceiver.LookAhead = .wholeLine,
  _ configure: (inout MorseReceiver.Settings) -> Void = { _ in }
) -> MorseReceiver.Settings {
  var settings = MorseReceiver.Settings()
  settings.lookAhead = lookAhead
  configure(&settings)
  return settings
}

/// Both readings by the sender's own timing: a file's and a live source's.
private let lookingAhead: [MorseReceiver.LookAhead] = [.wholeLine, .heldBack]

@Suite struct TimingLearnerTests {
  /// A lamp whose light rises and falls slowly, at about 2.5 WPM, one word: the threshold
  /// cut each mark short and stretched each gap, so that a gap inside a letter is two of its
  /// dots and a letter gap four (marks 0.31 and 0.96 s, gaps 0.65 and 1.29 s).
  @Test(arguments: ["WHAT", "HELLO", "SOS", "MORSE", "PARIS", "WHAT IS HIS NAME"], lookingAhead)
  func aSlowLampsGapsAreReadByItsOwnTiming(
    text: String, lookAhead: MorseReceiver.LookAhead
  ) throws {
    var random = SplitMix64(state: 41)
    let edges = try slowLamp(text, jitter: 0.07, random: &random)
    #expect(textReceived(from: edges, settings: whole(lookAhead)) == text + "\n")
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
  @Test(arguments: lookingAhead)
  func aSenderChangingSpeedInALineIsReadAtEachSpeed(lookAhead: MorseReceiver.LookAhead) throws {
    let slow = try edges("CQ CQ DE N0CALL", timing: try MorseTiming(wordsPerMinute: 12))
    let start = try #require(slow.last).time + .milliseconds(700)
    let fast = MorseEdge.edges(
      of: MorseSteps(
        try MorseMessage("TEST ME 73 TEST ME 73"), timing: try MorseTiming(wordsPerMinute: 30)),
      from: start)
    let read = textReceived(from: slow + fast, settings: whole(lookAhead))
    #expect(read == "CQ CQ DE N0CALL TEST ME 73 TEST ME 73\n")
  }

  /// A hand filmed at 30 fps: dots of 2 frames, dashes of 5-10, gaps inside a letter of 1.4-4,
  /// letter gaps of 11-16 (five or six dots) and no word gap in the whole message; a first
  /// dash of 5 frames with the gap after it 4.
  @Test(arguments: [UInt64(1), 2, 3, 4], lookingAhead)
  func aHandWithLongLetterGapsAndNoWordGapIsReadAsOneWord(
    seed: UInt64, lookAhead: MorseReceiver.LookAhead
  ) throws {
    var random = SplitMix64(state: seed)
    let frame = 1.0 / 30
    // The last longer than a live line's first reading (`HeldLine.firstLiveRead`).
    for text in ["MASATO", "OKAYTHEN", "WHEREISIT", "GOODMORNING", "THEQUICKBROWNFOXJUMPSOVER"] {
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
      #expect(
        textReceived(from: edges, settings: whole(lookAhead)) == text + "\n", "seed \(seed)")
    }
  }

  /// Farnsworth spacing (characters at 20 WPM, gaps stretched to 15), with no hint: the first
  /// words are not split into letters.
  @Test(arguments: [(20, 15), (20, 10), (25, 12), (18, 8)], lookingAhead)
  func farnsworthSpacingIsFoundWithoutAHint(
    speeds: (Int, Int), lookAhead: MorseReceiver.LookAhead
  ) throws {
    let timing = try MorseTiming(wordsPerMinute: speeds.0, farnsworth: speeds.1)
    for text in ["CQ CQ DE N0CALL K", "CQ CQ DE N0CALL N0CALL PSE K"] {
      let sent = MorseEdge.edges(of: MorseSteps(try MorseMessage(text), timing: timing))
      #expect(textReceived(from: sent, settings: whole(lookAhead)) == text + "\n")
    }
  }

  /// A hint is where the reading starts from, on a file too: a lone `E` and `T` cannot show
  /// their speed, and `--wpm` says it.
  @Test(arguments: lookingAhead)
  func theHintDecidesWhatTheLengthsCannot(lookAhead: MorseReceiver.LookAhead) throws {
    let timing = try MorseTiming(wordsPerMinute: 5)
    let sent = MorseEdge.edges(of: MorseSteps(try MorseMessage("T"), timing: timing))
    let atFive = whole(lookAhead) { $0.wordsPerMinute = 5 }
    let atOne = whole(lookAhead) { $0.wordsPerMinute = 1 }
    #expect(textReceived(from: sent, settings: atFive) == "T\n")
    #expect(textReceived(from: sent, settings: atOne) == "E\n")
  }

  /// Clean sending at any speed, with any hint, reads as the timing followed does.
  @Test(arguments: [5, 12, 20, 35, 50], lookingAhead)
  func cleanSendingReadsExactly(wpm: Int, lookAhead: MorseReceiver.LookAhead) throws {
    let timing = try MorseTiming(wordsPerMinute: wpm)
    for text in MorseReceiverTests.texts {
      let sent = MorseEdge.edges(of: MorseSteps(try MorseMessage(text), timing: timing))
      #expect(textReceived(from: sent, settings: whole(lookAhead)) == text + "\n")
    }
  }

  /// A live line is given as it comes once its timing is learned: all but the last few
  /// characters (`HeldLine.heldBack` marks) as each mark comes, the rest at a pause of twice
  /// the word gap, before the silence that ends the line; what is given is what the whole
  /// line reads.
  @Test func aLiveLineIsGivenAsItComesAFewCharactersHeldBack() throws {
    let text = "CQ CQ DE N0CALL N0CALL PSE K"
    let timing = try MorseTiming(wordsPerMinute: 20)
    let sent = MorseEdge.edges(of: MorseSteps(try MorseMessage(text), timing: timing))
    var receiver = MorseReceiver(settings: whole(.heldBack))
    var given = ""
    var givenAt: [Int] = []  // how many edges had come as each character was given
    for (index, edge) in sent.enumerated() {
      for output in receiver.receive(edge) {
        if case .text(let character) = output { given += character } else { given += " " }
        givenAt.append(index)
      }
    }
    // The first given once 40 marks (80 edges) were held; at the last edge, a few held back.
    let first = try #require(givenAt.first)
    #expect((80...90).contains(first), "\(givenAt)")
    #expect(text.hasPrefix(given) && (text.count - 8)...(text.count - 3) ~= given.count, "\(given)")
    // What is held, as it would read now (once the last mark is past the debounce).
    let last = try #require(sent.last).time
    #expect(receiver.advance(to: last + .milliseconds(100)).isEmpty)
    #expect(receiver.heldText == String(text.dropFirst(given.count)).trimmingPrefix(" "))
    // A pause of twice the word gap (0.42 s at 20 WPM) gives the rest; the line goes on.
    #expect(receiver.advance(to: last + .milliseconds(700)).isEmpty)
    var rest = receiver.advance(to: last + .milliseconds(900))
    #expect(!rest.isEmpty && !rest.contains(.lineBreak), "\(rest)")
    #expect(receiver.heldText.isEmpty)
    rest += receiver.advance(to: last + .seconds(5))
    #expect(rest.last == .lineBreak)
    let read = MorseCorpus.text(of: rest)
    #expect(given + read == text + "\n")
  }

  /// A live line too short to learn from is given at a pause of three times its longest gap
  /// (or of a word gap at the speed followed), not only when the line ends.
  @Test func aShortLiveLineIsGivenAtAPause() throws {
    let sent = try edges("CQ DE", timing: try MorseTiming(wordsPerMinute: 20))
    var receiver = MorseReceiver(settings: whole(.heldBack))
    var outputs: [MorseReceiver.Output] = []
    for edge in sent { outputs += receiver.receive(edge) }
    #expect(outputs.isEmpty)
    // The longest gap held is the word gap, 0.42 s.
    let last = try #require(sent.last).time
    #expect(receiver.advance(to: last + .milliseconds(1200)).isEmpty)
    outputs = receiver.advance(to: last + .milliseconds(1300))
    #expect(outputs == [.text("C"), .text("Q"), .space, .text("D"), .text("E")])
  }

  /// The groups one-dimensional k-means finds are the lengths' own.
  @Test func groupsAreTheValuesOwn() throws {
    let values = [1.0, 1.1, 0.9, 3.0, 3.2, 2.9, 7.0, 7.1].sorted()
    let three = try #require(TimingLearner.groups(values, count: 3)).map(\.mean)
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
