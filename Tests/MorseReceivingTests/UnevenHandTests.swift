import Instants
import MorseCore
import Testing

@testable import MorseReceiving

// A sender who holds each gap inside a character as long as the mark before it (a phone
// screen flashed by an app): the gaps inside an `O` are as long as the gap between letters,
// so every decoder read `SOS` as `STTTS`, `STTB`, `SMTS` or `ST7`.

/// `text` flashed so: dots of `dot` seconds, dashes 2.1 dots, the gap inside a character as
/// long as the mark before it, the gap between letters 2.4 dots after a dot and 1.9 after a
/// dash (shorter than the gap inside an `O`), words 12.6 dots apart.
private func flashed(_ text: String, dot: Double) throws -> [MorseEdge] {
  var edges: [MorseEdge] = []
  var time = 0.0
  func key(_ seconds: Double) {
    edges.append(MorseEdge(time: .origin + .seconds(time), isOn: true))
    time += seconds
    edges.append(MorseEdge(time: .origin + .seconds(time), isOn: false))
  }
  for (wordIndex, word) in text.split(separator: " ").enumerated() {
    if wordIndex > 0 { time += 12.6 * dot - 2.4 * dot }
    for character in word {
      let code = try #require(MorseAlphabet.code(for: character))
      for (index, element) in code.elements.enumerated() {
        let mark = element == .dot ? dot : 2.1 * dot
        key(mark)
        let isLast = index == code.elements.count - 1
        time += isLast ? (element == .dot ? 2.4 : 1.9) * dot : mark
      }
    }
  }
  return edges
}

/// The three ways a receiver reads.
private let everyLookAhead: [MorseReceiver.LookAhead] = [.followed, .wholeLine, .heldBack]

/// Settings that read with `lookAhead`.
private func settings(_ lookAhead: MorseReceiver.LookAhead) -> MorseReceiver.Settings {
  var settings = MorseReceiver.Settings()
  settings.lookAhead = lookAhead
  return settings
}

@Suite struct UnevenHandTests {
  /// Once its gaps have shown the hand (after the first word or two), every `SOS` is read
  /// as one: before, none was.
  @Test(arguments: everyLookAhead)
  func aScreenFlashingSOSWithItsGapsAsLongAsItsMarksIsReadSOS(
    lookAhead: MorseReceiver.LookAhead
  ) throws {
    let text = Array(repeating: "SOS", count: 9).joined(separator: " ")
    let read = decode(try flashed(text, dot: 0.166), settings: settings(lookAhead))
    let words = read.split(separator: " ").map(String.init)
    #expect(words.count == 9, "\(read)")
    #expect(words.suffix(6).allSatisfy { $0.trimmingNewlines == "SOS" }, "\(read)")
  }

  /// The same hand sending other words: where a letter ends in a dot its gap says so (2.4
  /// dots, the gap inside after a dot being one), and the `O` held is cut by the letters'
  /// frequencies. (`TE` and `N` this hand keys alike: no decoder can tell them apart.)
  @Test(arguments: everyLookAhead)
  func otherWordsFromTheSameHandAreReadToo(lookAhead: MorseReceiver.LookAhead) throws {
    let read = decode(
      try flashed("SOS SOS SOS HELLO HI SOS", dot: 0.12), settings: settings(lookAhead))
    #expect(read.hasSuffix("SOS SOS HELLO HI SOS\n"), "\(read)")
  }

  /// An even hand is never held: its characters come as soon as their letter gap does, as
  /// before (the same words, keyed to the standard).
  @Test func anEvenHandIsReadAsItComes() throws {
    let timing = try MorseTiming(wordsPerMinute: 15)
    var receiver = MorseReceiver()
    var read = ""
    let sent = try edges("SOS SOS SOS TEST MOON", timing: timing)
    for edge in sent {
      for case .text(let text) in receiver.receive(edge) { read += text }
    }
    // Everything but the last character, which its gap has not ended yet, came with the
    // edges themselves.
    #expect(read == "SOSSOSSOSTESTMOO")
  }

  /// An even hand is not taken for one that lingers after a dash, however often its dashes
  /// all end letters (`TEST`, whose `TE` a lingering hand keys as `N`): that hand is rare.
  @Test(arguments: [MorseReceiver.LookAhead.wholeLine, .heldBack])
  func anEvenHandWhoseDashesAllEndLettersIsNotReadAsLingering(
    lookAhead: MorseReceiver.LookAhead
  ) throws {
    for count in 1...4 {
      let text = Array(repeating: "TEST", count: count).joined(separator: " ")
      let sent = try edges(text, timing: try MorseTiming(wordsPerMinute: 15))
      #expect(decode(sent, settings: settings(lookAhead)) == text + "\n")
    }
  }

  /// The logarithm this module computes for itself.
  @Test(arguments: [
    (2.0, 0.693_147_180_559_945), (10, 2.302_585_092_994_046), (0.5, -0.693_147_180_559_945),
    (1, 0),
  ])
  func theNaturalLogarithmIsRight(value: Double, logarithm: Double) {
    #expect(abs(LetterShares.naturalLog(value) - logarithm) < 1e-12)
  }
}

extension String {
  /// Without line breaks.
  fileprivate var trimmingNewlines: String { filter { $0 != "\n" } }
}
