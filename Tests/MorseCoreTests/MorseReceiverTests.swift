import Testing

@testable import MorseCore

/// A small deterministic generator (SplitMix64), so that every run tests the same jitter.
private struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Everything `receiver` makes of `edges`, as text ("\n" for a line break).
private func decode(_ edges: [MorseEdge], settings: MorseReceiver.Settings = .init()) -> String {
  var receiver = MorseReceiver(settings: settings)
  var outputs: [MorseReceiver.Output] = []
  for edge in edges { outputs += receiver.receive(edge) }
  outputs += receiver.finish()
  return outputs.map { output in
    switch output {
    case .text(let text): text
    case .space: " "
    case .lineBreak: "\n"
    }
  }.joined()
}

private func edges(_ text: String, timing: MorseTiming) throws -> [MorseEdge] {
  MorseEdge.edges(of: MorseSteps(try MorseMessage(text), timing: timing))
}

/// Levenshtein distance, for the character error rate.
private func editDistance(_ a: [Character], _ b: [Character]) -> Int {
  var previous = Array(0...b.count)
  for (i, x) in a.enumerated() {
    var current = [i + 1]
    for (j, y) in b.enumerated() {
      current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
    }
    previous = current
  }
  return previous[b.count]
}

@Suite struct MorseReceiverTests {
  private let text = "PARIS PARIS CQ DE N0CALL 73, ARE YOU THERE? <SK>"

  @Test(arguments: Array(5...60))
  func everySpeedReadsBackExactlyWithTheHintAtFifteen(wpm: Int) throws {
    let timing = try MorseTiming(wordsPerMinute: wpm)
    let read = decode(try edges(text, timing: timing))
    #expect(read == text + "\n", "\(read.debugDescription)")
  }

  @Test func aWrongHintLocksOnWithinAFewCharacters() throws {
    var settings = MorseReceiver.Settings()
    settings.wordsPerMinute = 40
    let slow = try edges("EEEE " + text, timing: try MorseTiming(wordsPerMinute: 5))
    let read = decode(slow, settings: settings)
    // The first word may be misread while the estimate moves from 40 to 5 WPM.
    #expect(read.hasSuffix(text + "\n"), "\(read)")
  }

  @Test func farnsworthSpacingReadsRightWithItsHintAndSoonWithout() throws {
    let timing = try MorseTiming(wordsPerMinute: 20, farnsworth: 8)
    let sent = try edges(text, timing: timing)
    var settings = MorseReceiver.Settings()
    settings.wordsPerMinute = 20
    settings.farnsworthWPM = 8
    #expect(decode(sent, settings: settings) == text + "\n")
    // Without the hint the first gaps look like word gaps, until three are known.
    let unhinted = decode(sent, settings: MorseReceiver.Settings())
    #expect(unhinted.hasSuffix("PARIS CQ DE N0CALL 73, ARE YOU THERE? <SK>\n"), "\(unhinted)")
  }

  @Test func silenceCompletesTheLastCharacterAndEndsTheLine() throws {
    var receiver = MorseReceiver()
    let sent = try edges("E", timing: try MorseTiming(wordsPerMinute: 15))
    var outputs = sent.flatMap { receiver.receive($0) }
    #expect(outputs.isEmpty)
    // The first mark alone does not show the speed: after 2.4 s of silence (ten dots at the
    // slowest speed) it is read.
    outputs += receiver.advance(to: .milliseconds(2000))
    #expect(outputs.isEmpty)
    outputs += receiver.advance(to: .milliseconds(2500))
    #expect(outputs == [.text("E")])
    outputs += receiver.advance(to: .seconds(5))
    #expect(outputs == [.text("E"), .lineBreak])
  }

  @Test func unknownCodesAreShownInBrackets() {
    let dot = Duration.milliseconds(80)
    var sent: [MorseEdge] = []
    var time = Duration.zero
    for (index, element) in ".-.-.-.-.-".enumerated() {
      if index > 0 { time += dot }
      sent.append(MorseEdge(time: time, isOn: true))
      time += element == "." ? dot : dot * 3
      sent.append(MorseEdge(time: time, isOn: false))
    }
    #expect(decode(sent) == "[.-.-.-.-.-]\n")
  }

  @Test func handKeyingWithJitterASpeedChangeAndBounceStaysUnderOnePercent() throws {
    var random = SplitMix64(state: 0x6D6F_7273_6574_6F72)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    var words: [String] = []
    for _ in 0..<600 {
      let length = Int.random(in: 1...7, using: &random)
      words.append(String((0..<length).map { _ in alphabet.randomElement(using: &random)! }))
    }
    let sentText = words.joined(separator: " ")
    var edgesSent: [MorseEdge] = []
    var time = Duration.zero
    let steps = Array(
      MorseSteps(try MorseMessage(sentText), timing: try MorseTiming(wordsPerMinute: 18)))
    for (index, step) in steps.enumerated() {
      // 18 WPM, then 30 % faster over the second half; each length ±10 %.
      let speed = index < steps.count / 2 ? 1.0 : 1 / 1.3
      let jitter = Double.random(in: 0.9...1.1, using: &random)
      let length = step.duration * (speed * jitter)
      let isOn = step.kind == .dot || step.kind == .dash
      if isOn { edgesSent.append(MorseEdge(time: time, isOn: true)) }
      time += length
      if isOn {
        // Contact bounce now and then: a 1-3 ms glitch inside the mark.
        if Int.random(in: 0..<10, using: &random) == 0 {
          let at = time - length / 2
          let spike = Duration.milliseconds(Int.random(in: 1...3, using: &random))
          edgesSent.append(MorseEdge(time: at, isOn: false))
          edgesSent.append(MorseEdge(time: at + spike, isOn: true))
        }
        edgesSent.append(MorseEdge(time: time, isOn: false))
      }
    }
    var settings = MorseReceiver.Settings()
    settings.wordsPerMinute = 18
    let read = decode(edgesSent, settings: settings).trimmingTrailingNewline()
    let errors = editDistance(Array(sentText), Array(read))
    let rate = Double(errors) / Double(sentText.count)
    print("receiver: character error rate \(errors)/\(sentText.count) = \(rate * 100) %")
    #expect(rate < 0.01, "CER \(rate): \(read.prefix(200))")
  }
}

extension String {
  fileprivate func trimmingTrailingNewline() -> String {
    hasSuffix("\n") ? String(dropLast()) : self
  }
}
