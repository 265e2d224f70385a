import Instants
import MorseCore
import MorseCorpus
import MorseTestSupport
import Testing

@testable import MorseReceiving

// The receiver against hand keying and a noisy light channel, simulated: character error
// rates, with texts made at random.

/// Hand keying of `text`, timed by `timing` scaled as `pace` says (1: as timed, 1.3: 30 %
/// faster) at each step's fraction of the way, every length off by up to `jitter`, and with
/// probability `bounce` a 1-3 ms bounce just after each key-down and key-up, a glitch
/// inside a mark or a spike inside a gap.
private func handKeyed(
  _ text: String, timing: MorseTiming, jitter: Double, bounce: Double,
  pace: (Double) -> Double, wordGapUnits: Double = 7, random: inout SplitMix64
) throws -> [MorseEdge] {
  let steps = Array(MorseSteps(try MorseMessage(text), timing: timing))
  var edges: [MorseEdge] = []
  var time = MonotonicInstant.origin + .seconds(1)
  // A 1-3 ms pulse (or gap) from `from`, back to the level before.
  func spike(_ from: MonotonicInstant, _ isOn: Bool) {
    let width = Duration.microseconds(Int.random(in: 1000...3000, using: &random))
    edges.append(MorseEdge(time: from, isOn: isOn))
    edges.append(MorseEdge(time: from + width, isOn: !isOn))
  }
  for (index, step) in steps.enumerated() {
    var scale = Double.random(in: (1 - jitter)...(1 + jitter), using: &random)
    if step.kind == .wordGap { scale *= wordGapUnits / 7 }
    let length = step.duration * (scale / pace(Double(index) / Double(steps.count)))
    let start = time
    time += length
    let bounces = (0..<3).map { _ in Double.random(in: 0..<1, using: &random) < bounce }
    if step.isOn {
      edges.append(MorseEdge(time: start, isOn: true))
      if bounces[0] { spike(start + .microseconds(500), false) }
      if bounces[1] { spike(start + length / 2, false) }
      edges.append(MorseEdge(time: time, isOn: false))
      if bounces[2] { spike(time + .microseconds(500), true) }
    } else if bounces[1] && length > .milliseconds(20) {
      spike(start + length / 2, true)
    }
  }
  return edges
}

/// The character error rate of `read` against `sent` (edit distance over the length sent),
/// printed with `condition`.
private func errorRate(of read: String, sent: String, _ condition: String) -> Double {
  let errors = editDistance(Array(sent), Array(read))
  let rate = Double(errors) / Double(sent.count)
  print("receiver: \(condition): character error rate \(errors)/\(sent.count) = \(rate * 100) %")
  return rate
}

/// What a camera or a light sensor makes of `edges`: a 3-8 ms flash in the gaps about once in
/// `blipEvery` (reflections, another light), and one mark in `dropoutShare` split by a 5-15 ms
/// dropout (a frame lost, a hand in the way).
private func lightChannel(
  _ edges: [MorseEdge], blipEvery: Duration = .seconds(5), dropoutShare: Double = 0.03,
  random: inout SplitMix64
) -> [MorseEdge] {
  var result: [MorseEdge] = []
  var nextBlip = MonotonicInstant.origin + .seconds(Double.random(in: 0...10, using: &random))
  for (index, edge) in edges.enumerated() {
    result.append(edge)
    guard index + 1 < edges.count else { break }
    let next = edges[index + 1].time
    if edge.isOn {
      let length = next - edge.time
      let dropout = Duration.microseconds(Int.random(in: 5000...15000, using: &random))
      if Double.random(in: 0..<1, using: &random) < dropoutShare,
        length > dropout + .milliseconds(4)
      {
        let at = edge.time + (length - dropout) / 2
        result.append(MorseEdge(time: at, isOn: false))
        result.append(MorseEdge(time: at + dropout, isOn: true))
      }
    } else {
      while nextBlip < next {
        let width = Duration.microseconds(Int.random(in: 3000...8000, using: &random))
        if nextBlip > edge.time + .milliseconds(2) && nextBlip + width < next - .milliseconds(2) {
          result.append(MorseEdge(time: nextBlip, isOn: true))
          result.append(MorseEdge(time: nextBlip + width, isOn: false))
        }
        nextBlip += blipEvery * Double.random(in: 0.5...1.5, using: &random)
      }
    }
  }
  return result
}

/// Random words of 1 to 7 letters, figures and punctuation.
private func randomText(words: Int, random: inout SplitMix64) -> String {
  let characters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,?/=")
  return (0..<words).map { _ in
    let length = Int.random(in: 1...7, using: &random)
    return String((0..<length).map { _ in characters.randomElement(using: &random)! })
  }.joined(separator: " ")
}

extension MorseReceiverTests {
  /// How the sender's speed changes over a message: 30 % in all.
  enum SpeedChange: String, CaseIterable, Sendable {
    case fasterAtOnceHalfway, slowingDownGradually, speedingUpGradually

    /// The speed it starts at.
    var wordsPerMinute: Int {
      switch self {
      case .fasterAtOnceHalfway: 18
      case .slowingDownGradually: 25
      case .speedingUpGradually: 8
      }
    }

    /// The speed at `fraction` of the way, relative to the start.
    func pace(at fraction: Double) -> Double {
      switch self {
      case .fasterAtOnceHalfway: fraction < 0.5 ? 1 : 1.3
      case .slowingDownGradually: 1 - 0.3 * fraction
      case .speedingUpGradually: 1 + 0.3 * fraction
      }
    }
  }

  /// 10 % jitter on every length, a 30 % change of speed, and 1-3 ms bounce at one edge in
  /// five: under 1 % of the characters wrong. The hint is off by a third.
  @Test(arguments: SpeedChange.allCases)
  func handKeyingWithJitterASpeedChangeAndBounceStaysUnderOnePercent(change: SpeedChange) throws {
    let wpm = change.wordsPerMinute
    var random = SplitMix64(state: 0x6D6F_7273_6574_6F72 &+ UInt64(wpm))
    let sentText = randomText(words: 700, random: &random)
    let sent = try handKeyed(
      sentText, timing: try MorseTiming(wordsPerMinute: wpm), jitter: 0.1, bounce: 0.2,
      pace: change.pace(at:), random: &random)
    var settings = MorseReceiver.Settings()
    settings.wordsPerMinute = Double(wpm) * 4 / 3
    let read = decode(sent, settings: settings).trimmingTrailingNewline()
    let rate = errorRate(
      of: read, sent: sentText, "\(wpm) WPM, \(change.rawValue) 30 %, 10 % jitter, bounce")
    #expect(rate < 0.01, "CER \(rate): \(read.prefix(200))")
  }

  /// A light read by a camera or a sensor: flashes of 3-8 ms in the gaps, 3 % of the marks
  /// split by a 5-15 ms dropout, 10 % jitter; the hint off by a third.
  @Test(arguments: [12, 20, 30])
  func aNoisyLightStaysUnderTwoPercent(wpm: Int) throws {
    var random = SplitMix64(state: 0x6C69_6768_7400_0000 &+ UInt64(wpm))
    let sentText = randomText(words: 300, random: &random)
    let keyed = try handKeyed(
      sentText, timing: try MorseTiming(wordsPerMinute: wpm), jitter: 0.1, bounce: 0,
      pace: { _ in 1 }, random: &random)
    let sent = lightChannel(keyed, random: &random)
    var settings = MorseReceiver.Settings()
    settings.wordsPerMinute = Double(wpm) * 4 / 3
    let read = decode(sent, settings: settings).trimmingTrailingNewline()
    let rate = errorRate(of: read, sent: sentText, "\(wpm) WPM, light channel, 10 % jitter")
    #expect(rate < 0.02, "CER \(rate): \(read.prefix(300))")
  }

  /// A straight key with 25 % jitter on every element, no hint. (At 28 WPM the same is 11 %
  /// today: the speed estimate moves enough with such jitter that some letter gaps fall under
  /// two dots; a slower estimate helps there and costs the speed jump below.)
  @Test(arguments: [10, 18])
  func aQuarterJitterStaysUnderThreePercent(wpm: Int) throws {
    let rate = try steadyHand(
      seed: 0x6A69_7474_6572_0000 &+ UInt64(wpm), wpm: wpm, jitter: 0.25, bounce: 0.1,
      "\(wpm) WPM, 25 % jitter, bounce, no hint")
    #expect(rate < 0.03)
  }

  /// One letter gap keyed a fifth short at the start of a message (190 ms instead of 240 at
  /// 15 WPM). Before: "PARI S CQ 73" — with three gaps seen, the short one alone made a
  /// group of letter gaps and the two right ones word gaps.
  @Test func oneShortLetterGapEarlyMakesNoWordGaps() throws {
    let sent = try edges("PARIS CQ 73", timing: try MorseTiming(wordsPerMinute: 15))
    // The gaps between characters are the off stretches over two dots: R–I is the third.
    let gaps = sent.indices.dropFirst().filter {
      sent[$0].isOn && sent[$0].time - sent[$0 - 1].time > .milliseconds(200)
    }
    let shortened = gaps[2]
    let earlier = Duration.milliseconds(50)
    let keyed = sent.enumerated().map { index, edge in
      index >= shortened ? MorseEdge(time: edge.time - earlier, isOn: edge.isOn) : edge
    }
    #expect(decode(keyed) == "PARIS CQ 73\n")
  }

  /// Short messages (where few gaps have been seen: the start of every message) from a hand
  /// with 20 % jitter on every element, read with no hint: 64 of them, 8 texts at 12 and
  /// 20 WPM. Before: 5 of 64 with a word gap too many or too few.
  @Test func shortHandKeyedMessagesWithAFifthOfJitterReadExactly() throws {
    let texts = [
      "PARIS CQ 73", "MESSAGE RECEIVED", "HELLO WORLD", "SOS SOS", "CQ DE TEST K",
      "NOW IS THE TIME", "QRL QRZ", "THE QUICK BROWN FOX",
    ]
    var random = SplitMix64(state: 0x7368_6F72_7400_0000)
    var wrong: [String] = []
    for text in texts {
      for wpm in [12, 20] {
        for _ in 0..<4 {
          let keyed = try handKeyed(
            text, timing: try MorseTiming(wordsPerMinute: wpm), jitter: 0.2, bounce: 0,
            pace: { _ in 1 }, random: &random)
          let read = decode(keyed).trimmingTrailingNewline()
          if read != text { wrong.append("\(wpm) WPM \(text) -> \(read)") }
        }
      }
    }
    #expect(wrong.count <= 1, "\(wrong)")
  }

  /// A sender whose word gap is only 1.5 times the letter gap (4.5 units), 10 % jitter: the
  /// words are still told apart.
  @Test func wordGapsOfOnlyOneAndAHalfLetterGapsAreStillWords() throws {
    let rate = try steadyHand(
      seed: 0x7469_6768_7400_0000, wpm: 18, jitter: 0.1, bounce: 0, wordGapUnits: 4.5,
      "18 WPM, word gap 4.5 units, 10 % jitter")
    #expect(rate < 0.03)
  }

  /// The error rate of 300 random words keyed by hand at a steady `wpm`, read with no hint.
  private func steadyHand(
    seed: UInt64, wpm: Int, jitter: Double, bounce: Double, wordGapUnits: Double = 7,
    _ condition: String
  ) throws -> Double {
    var random = SplitMix64(state: seed)
    let sentText = randomText(words: 300, random: &random)
    let keyed = try handKeyed(
      sentText, timing: try MorseTiming(wordsPerMinute: wpm), jitter: jitter, bounce: bounce,
      pace: { _ in 1 }, wordGapUnits: wordGapUnits, random: &random)
    return errorRate(of: decode(keyed).trimmingTrailingNewline(), sent: sentText, condition)
  }

  /// The light channel on a hand that keys with 15 % jitter and jumps from 12 to 24 WPM
  /// halfway, with no hint of the speed.
  @Test func aNoisyLightFromAHandThatDoublesItsSpeedStaysUnderThreePercent() throws {
    var random = SplitMix64(state: 0x6A75_6D70_0000_0000)
    let sentText = randomText(words: 300, random: &random)
    let keyed = try handKeyed(
      sentText, timing: try MorseTiming(wordsPerMinute: 12), jitter: 0.15, bounce: 0.1,
      pace: { $0 < 0.5 ? 1 : 2 }, random: &random)
    let read = decode(lightChannel(keyed, random: &random)).trimmingTrailingNewline()
    let rate = errorRate(
      of: read, sent: sentText, "12 -> 24 WPM, 15 % jitter, bounce, light channel, no hint")
    #expect(rate < 0.03, "CER \(rate): \(read.prefix(300))")
  }
}

extension String {
  fileprivate func trimmingTrailingNewline() -> String {
    hasSuffix("\n") ? String(dropLast()) : self
  }
}
