import Instants
import MorseCore
import MorseCorpus
import MorseTestSupport
import Testing

@testable import MorseReceiving

/// The edges of `message` inside `piece`: for a mark from its key-down to its key-up, for a
/// gap strictly between its ends.
private func edges(of message: ReceiverCorpus.Message, in piece: KeyedPiece) -> [MorseEdge] {
  message.edges.filter { edge in
    piece.isMark
      ? edge.time >= piece.start && edge.time <= piece.end
      : edge.time > piece.start && edge.time < piece.end
  }
}

/// Whether `a` is `b` within a nanosecond (a unit made from a Double).
private func isAbout(_ a: Duration, _ b: Duration) -> Bool {
  a - b < .nanoseconds(1) && b - a < .nanoseconds(1)
}

/// What the conditions promise (not the generator's own constants, which a change could move).
private let bounceRange = Duration.microseconds(500)...Duration.microseconds(3000)
private let blipRange = Duration.milliseconds(3)...Duration.milliseconds(8)
private let dropoutRange = Duration.milliseconds(5)...Duration.milliseconds(15)

/// The lengths between consecutive `edges`.
private func intervals(_ edges: [MorseEdge]) -> [Duration] {
  zip(edges.dropFirst(), edges).map { $0.time - $1.time }
}

/// The benchmark corpus is what `ReceiverCorpus` promises: the same for the same seed, and
/// each condition timed as its name says.
@Suite struct ReceiverCorpusTests {
  @Test(arguments: ReceiverCorpus.Condition.allCases)
  func theSameSeedGivesTheSameEdgesAndAnotherSeedOthers(condition: ReceiverCorpus.Condition) {
    let first = ReceiverCorpus.messages(condition, seed: 7)
    let again = ReceiverCorpus.messages(condition, seed: 7)
    #expect(first.map(\.text) == again.map(\.text))
    #expect(first.map(\.edges) == again.map(\.edges))
    #expect(first.map(\.pieces) == again.map(\.pieces))
    let other = ReceiverCorpus.messages(condition, seed: 8)
    #expect(first.map(\.edges) != other.map(\.edges))
  }

  @Test(arguments: ReceiverCorpus.Condition.allCases)
  func everyConditionIsOverThreeHundredCharactersOfIncreasingEdges(
    condition: ReceiverCorpus.Condition
  ) {
    let messages = ReceiverCorpus.messages(condition)
    #expect(messages.map(\.text.count).reduce(0, +) >= 300)
    for message in messages {
      #expect(message.edges.first?.isOn == true)
      #expect(message.edges.last?.isOn == false)
      #expect(zip(message.edges.dropFirst(), message.edges).allSatisfy { $0.time > $1.time })
      #expect(zip(message.edges.dropFirst(), message.edges).allSatisfy { $0.isOn != $1.isOn })
      #expect(message.text.allSatisfy { $0 == " " || MorseAlphabet.code(for: $0) != nil })
    }
  }

  /// 20 WPM: a 60 ms dot, every length exact, and the edges are the marks.
  @Test func idealTimingAtTwentyIsITUToTheMicrosecond() {
    let expected: [KeyedPiece.Kind: Duration] = [
      .dot: .milliseconds(60), .dash: .milliseconds(180), .elementGap: .milliseconds(60),
      .letterGap: .milliseconds(180), .wordGap: .milliseconds(420),
    ]
    for message in ReceiverCorpus.messages(.ideal20) {
      #expect(message.wordsPerMinute == 20)
      for piece in message.pieces {
        #expect(piece.length == expected[piece.kind], "\(piece)")
      }
      let marks = message.pieces.filter(\.isMark)
      let onAndOff = marks.flatMap { mark in
        [MorseEdge(time: mark.start, isOn: true), MorseEdge(time: mark.end, isOn: false)]
      }
      #expect(message.edges == onAndOff)
    }
  }

  @Test(arguments: [ReceiverCorpus.Condition.ideal5, .ideal40])
  func idealTimingHasTheUnitOfItsSpeed(condition: ReceiverCorpus.Condition) {
    let unit =
      Duration.milliseconds(1200) / Int(ReceiverCorpus.messages(condition)[0].wordsPerMinute)
    for message in ReceiverCorpus.messages(condition) {
      #expect(message.pieces.filter { $0.kind == .dot }.allSatisfy { $0.length == unit })
      #expect(message.pieces.filter { $0.kind == .wordGap }.allSatisfy { $0.length == unit * 7 })
    }
  }

  /// Each hand sender has its own proportions within the promised ranges, and every length
  /// is within its jitter of them.
  @Test(arguments: [
    (ReceiverCorpus.Condition.hand15, 0.15), (.hand25, 0.25), (.together, 0.15),
  ])
  func handSendersKeepTheirProportionsWithinTheirJitter(
    condition: ReceiverCorpus.Condition, jitter: Double
  ) {
    let messages = ReceiverCorpus.messages(condition)
    // Each sender (seeded) keys differently.
    #expect(Set(messages.map(\.fist.dashUnits)).count == messages.count)
    var largest = 0.0
    for message in messages {
      let fist = message.fist
      #expect(fist.jitter == jitter)
      #expect((2.5...4).contains(fist.dashUnits))
      #expect((2.5...4).contains(fist.letterGapUnits))
      #expect((5...10).contains(fist.wordGapUnits))
      #expect((12...25).contains(Int(message.wordsPerMinute)))
      for piece in message.pieces {
        #expect(piece.unit == .seconds(1.2 / message.wordsPerMinute))
        let nominal = piece.unit * fist.units(of: piece.kind)
        let off = abs(piece.length / nominal - 1)
        // A microsecond of rounding at each end.
        #expect(off <= jitter + 2e-6 / (nominal / .seconds(1)), "\(piece)")
        largest = max(largest, off)
      }
    }
    // The jitter is used, not only allowed.
    #expect(largest > jitter * 0.9)
  }

  /// Every key-down bounces 1-3 times, each closing and opening 0.5-3 ms; nothing else moves.
  @Test func contactBounceIsOneToThreeShortOpeningsAtEveryKeyDown() {
    for message in ReceiverCorpus.messages(.bounce) {
      for piece in message.pieces {
        let inside = edges(of: message, in: piece)
        guard piece.isMark else {
          #expect(inside.isEmpty)
          continue
        }
        #expect(inside.first == MorseEdge(time: piece.start, isOn: true))
        #expect(inside.last == MorseEdge(time: piece.end, isOn: false))
        let bounces = Array(inside.dropLast())
        #expect((3...7).contains(bounces.count) && bounces.count % 2 == 1, "\(inside)")
        #expect(intervals(bounces).allSatisfy { bounceRange.contains($0) })
      }
    }
  }

  /// Flashes of 3-8 ms only in gaps, about one per 5 s; about 3 % of the marks cut by a
  /// 5-15 ms dropout.
  @Test func theLightChannelFlashesInGapsAndCutsAFewMarks() {
    var blips = 0
    var dropouts = 0
    var marks = 0
    var seconds = 0.0
    for message in ReceiverCorpus.messages(.light) {
      seconds += (message.pieces.last!.end - message.pieces.first!.start) / .seconds(1)
      for piece in message.pieces {
        let inside = edges(of: message, in: piece)
        if piece.isMark {
          marks += 1
          #expect(inside.count == 2 || inside.count == 4)
          if inside.count == 4 {
            dropouts += 1
            #expect(dropoutRange.contains(inside[2].time - inside[1].time))
            #expect(inside[2].time <= piece.end - .milliseconds(2))
          }
        } else {
          #expect(inside.count % 2 == 0)
          for pair in stride(from: 0, to: inside.count, by: 2) {
            blips += 1
            #expect(inside[pair].isOn)
            #expect(blipRange.contains(inside[pair + 1].time - inside[pair].time))
            #expect(inside[pair].time > piece.start + .milliseconds(2))
            #expect(inside[pair + 1].time < piece.end - .milliseconds(2))
          }
        }
      }
    }
    #expect((seconds / 7...seconds / 4).contains(Double(blips)), "\(blips) in \(seconds) s")
    #expect((0.01...0.06).contains(Double(dropouts) / Double(marks)), "\(dropouts)/\(marks)")
  }

  @Test func speedDriftsFromFifteenToTwentyFiveAndJumpsFromTwelveToTwentyFour() {
    for message in ReceiverCorpus.messages(.drift15to25) {
      let units = message.pieces.map(\.unit)
      #expect(message.wordsPerMinute == 15)
      #expect(units.first == .seconds(1.2 / 15))
      #expect(abs(units.last! / .seconds(1.2 / 25) - 1) < 0.01)
      #expect(zip(units.dropFirst(), units).allSatisfy { $0 <= $1 })
    }
    for message in ReceiverCorpus.messages(.jump12to24) {
      let half = message.pieces.count / 2
      #expect(message.wordsPerMinute == 12)
      #expect(message.pieces[..<half].allSatisfy { isAbout($0.unit, .milliseconds(100)) })
      #expect(message.pieces[(half + 1)...].allSatisfy { isAbout($0.unit, .milliseconds(50)) })
    }
  }

  @Test func farnsworthKeepsEighteenWPMCharactersWithEightWPMSpacing() throws {
    let timing = try MorseTiming(wordsPerMinute: 18, farnsworth: 8)
    for message in ReceiverCorpus.messages(.farnsworth18of8) {
      #expect(message.wordsPerMinute == 18 && message.farnsworthWPM == 8)
      for piece in message.pieces {
        let expected: Duration =
          switch piece.kind {
          case .dot, .elementGap: timing.unit
          case .dash: timing.dash
          case .letterGap: timing.letterGap
          case .wordGap: timing.wordGap
          }
        let off = piece.length - expected
        #expect(off <= .microseconds(1) && off >= .microseconds(-1), "\(piece)")
      }
    }
  }

  @Test func theCharacterErrorRateCountsEditsAfterNormalizingSpacesAndCase() {
    #expect(editDistance(Array("KITTEN"), Array("SITTING")) == 3)
    #expect(characterErrors(read: " paris\n  paris \n", sent: "PARIS PARIS") == (0, 11))
    #expect(characterErrors(read: "PARISPARIS", sent: "PARIS PARIS") == (1, 11))
  }
}
