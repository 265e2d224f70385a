import Instants
import MorseCore
import MorseCorpus
import MorseTestSupport
import Testing

@testable import MorseReceiving

/// Everything the receiver makes of `edges`, as text ("\n" for a line break).
func decode(_ edges: [MorseEdge], settings: MorseReceiver.Settings = .init()) -> String {
  textReceived(from: edges, settings: settings)
}

/// The edges of `text` sent perfectly, timed by `timing`.
func edges(_ text: String, timing: MorseTiming) throws -> [MorseEdge] {
  MorseEdge.edges(of: MorseSteps(try MorseMessage(text), timing: timing))
}

@Suite struct MorseReceiverTests {
  static let texts = [
    "PARIS PARIS CQ DE N0CALL 73, ARE YOU THERE? <SK>",
    // Only dots until the figures: the speed is told by the gaps between them.
    "SHE IS 5/9 <SK>",
    // Single-letter words: all the first gaps between characters are word gaps.
    "R R R 5 5 5 TU",
  ]

  /// A prosign stands as a word of its own, spaced from the characters beside it, though
  /// sent with a letter gap only (a lamp's `...---...` over and over: `<SOS> <SOS>`).
  @Test func aProsignIsAWordOfItsOwn() throws {
    let timing = try MorseTiming(wordsPerMinute: 15)
    #expect(decode(try edges("73<SK>", timing: timing)) == "73 <SK>\n")
    #expect(decode(try edges("<SOS><SOS><SOS> E", timing: timing)) == "<SOS> <SOS> <SOS> E\n")
    #expect(decode(try edges("<SK>E", timing: timing)) == "<SK> E\n")
  }

  /// Exact from the first character, whatever the hint within the range.
  @Test(arguments: Array(1...60))
  func everySpeedReadsBackExactlyWithAnyHint(wpm: Int) throws {
    let timing = try MorseTiming(wordsPerMinute: wpm)
    for text in Self.texts {
      for hint in [1.0, 5, 15, 20, 60] {
        var settings = MorseReceiver.Settings()
        settings.wordsPerMinute = hint
        let read = decode(try edges(text, timing: timing), settings: settings)
        #expect(read == text + "\n", "hint \(hint): \(read.debugDescription)")
      }
    }
  }

  /// A new sender eight times as fast, after one word gap: the first word at the new speed
  /// may be misread, the rest is exact.
  @Test func aLightThatOnlyBlinksIsOneUnknownCodeKeptShort() throws {
    // 10 000 dots with no letter gap (a blinking light), then "E" after a letter gap: before,
    // every element was kept, and memory grew with the blinking.
    let timing = MorseTiming(unit: .milliseconds(60))
    var blinking: [MorseEdge] = []
    var time = MonotonicInstant.origin + .seconds(1)
    for _ in 0..<10_000 {
      blinking.append(MorseEdge(time: time, isOn: true))
      blinking.append(MorseEdge(time: time + timing.unit, isOn: false))
      time += timing.unit * 2
    }
    time += timing.unit * 2
    let letter = try edges("E", timing: timing).map {
      MorseEdge(time: time + $0.time.sinceOrigin, isOn: $0.isOn)
    }
    let text = decode(blinking + letter)
    let cut = "[" + String(repeating: ".", count: MorseReceiver.longestKept) + "…]"
    #expect(text.hasPrefix(cut + "E"), "\(text.prefix(100))")
  }

  @Test func aSuddenSpeedChangeIsFollowedWithinAWord() throws {
    let slow = try edges("CQ CQ DE N0CALL", timing: try MorseTiming(wordsPerMinute: 5))
    let fast = try edges("TEST ME 73 <SK>", timing: try MorseTiming(wordsPerMinute: 40))
    let gap = Duration.milliseconds(1680)
    let start = slow.last!.time + gap
    let read = decode(slow + fast.map { MorseEdge(time: start + $0.time.sinceOrigin, isOn: $0.isOn) })
    #expect(read.hasPrefix("CQ CQ DE N0CALL "), "\(read)")
    #expect(read.hasSuffix(" ME 73 <SK>\n"), "\(read)")
  }

  @Test func farnsworthSpacingReadsRightWithItsHintAndSoonWithout() throws {
    let timing = try MorseTiming(wordsPerMinute: 20, farnsworth: 8)
    let sent = try edges(Self.texts[0], timing: timing)
    var settings = MorseReceiver.Settings()
    settings.wordsPerMinute = 20
    settings.farnsworthWPM = 8
    #expect(decode(sent, settings: settings) == Self.texts[0] + "\n")
    // Without the hint the first gaps look like word gaps, until a word gap shows otherwise.
    let unhinted = decode(sent, settings: MorseReceiver.Settings())
    #expect(unhinted.hasSuffix("PARIS CQ DE N0CALL 73, ARE YOU THERE? <SK>\n"), "\(unhinted)")
  }

  /// Slow Farnsworth spacing stretches word gaps past the 4 s line break: twice the word gap
  /// is what ends the line then.
  @Test func slowFarnsworthWordGapsAreSpacesNotLineBreaks() throws {
    let timing = try MorseTiming(wordsPerMinute: 20, farnsworth: 4)
    #expect(timing.wordGap > .seconds(4))
    var settings = MorseReceiver.Settings()
    settings.wordsPerMinute = 20
    settings.farnsworthWPM = 4
    #expect(
      decode(try edges("CQ CQ DE N0CALL", timing: timing), settings: settings)
        == "CQ CQ DE N0CALL\n")
  }

  @Test func silenceCompletesTheLastCharacterAndEndsTheLine() throws {
    var receiver = MorseReceiver()
    let sent = try edges("E", timing: try MorseTiming(wordsPerMinute: 15))
    var outputs = sent.flatMap { receiver.receive($0) }
    #expect(outputs.isEmpty)
    // The first mark alone does not show the speed: after twenty times its length of silence
    // (80 ms + 1600 ms) it is read.
    outputs += receiver.advance(to: .origin + .milliseconds(1670))
    #expect(outputs.isEmpty)
    outputs += receiver.advance(to: .origin + .milliseconds(1690))
    #expect(outputs == [.text("E")])
    outputs += receiver.advance(to: .origin + .seconds(5))
    #expect(outputs == [.text("E"), .lineBreak])
  }

  /// A character is complete once the silence after it is past the element gaps: twice
  /// their length (120 ms).
  @Test func theLastCharacterCompletesPastTheElementGapsAndTheSpaceComesBeforeTheNext() throws {
    var settings = MorseReceiver.Settings()
    settings.lineBreakAfter = .seconds(1)
    var receiver = MorseReceiver(settings: settings)
    let sent = try edges("PARIS PA", timing: try MorseTiming(wordsPerMinute: 20))
    var outputs = sent.flatMap { receiver.receive($0) }
    let end = sent.last!.time
    #expect(outputs == "PARIS P".map { $0 == " " ? .space : .text(String($0)) })
    outputs = receiver.advance(to: end + .milliseconds(110))
    #expect(outputs.isEmpty)
    outputs = receiver.advance(to: end + .milliseconds(130))
    #expect(outputs == [.text("A")])
    #expect(receiver.advance(to: end + .milliseconds(990)).isEmpty)
    #expect(receiver.advance(to: end + .seconds(1)) == [.lineBreak])
    #expect(receiver.advance(to: end + .seconds(10)).isEmpty)
    #expect(receiver.finish().isEmpty)
  }

  @Test func bounceIsMergedAway() {
    let ms = { MonotonicInstant.origin + .milliseconds($0) }
    let sent = [
      // A dash (240 ms) with a burst at key-down, a 2 ms glitch inside and a burst at key-up.
      MorseEdge(time: ms(0), isOn: true), MorseEdge(time: ms(1), isOn: false),
      MorseEdge(time: ms(2), isOn: true), MorseEdge(time: ms(120), isOn: false),
      MorseEdge(time: ms(122), isOn: true), MorseEdge(time: ms(240), isOn: false),
      MorseEdge(time: ms(243), isOn: true), MorseEdge(time: ms(244), isOn: false),
      // A 3 ms spike in the element gap, then a dot.
      MorseEdge(time: ms(280), isOn: true), MorseEdge(time: ms(283), isOn: false),
      MorseEdge(time: ms(320), isOn: true), MorseEdge(time: ms(400), isOn: false),
    ]
    #expect(decode(sent) == "N\n")
  }

  @Test func resetForgetsTheSpeedAndTheHalfReceivedCharacter() throws {
    var settings = MorseReceiver.Settings()
    settings.wordsPerMinute = 20
    var receiver = MorseReceiver(settings: settings)
    for edge in try edges("PARIS TT", timing: try MorseTiming(wordsPerMinute: 8)) {
      _ = receiver.receive(edge)
    }
    #expect(abs(receiver.wordsPerMinute - 8) < 0.5)
    receiver.reset()
    #expect(receiver.wordsPerMinute == 20)
    #expect(receiver.finish().isEmpty)
  }

  @Test func unknownCodesAreShownInBrackets() {
    let dot = Duration.milliseconds(80)
    var sent: [MorseEdge] = []
    var time = MonotonicInstant.origin
    for (index, element) in ".-.-.-.-.-".enumerated() {
      if index > 0 { time += dot }
      sent.append(MorseEdge(time: time, isOn: true))
      time += element == "." ? dot : dot * 3
      sent.append(MorseEdge(time: time, isOn: false))
    }
    #expect(decode(sent) == "[.-.-.-.-.-]\n")
  }
}
