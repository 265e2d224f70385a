import MorseCorpus
import Testing

@testable import MorseReceiving

// Lights keyed by hand at 1-5 WPM, as a signal lamp or a torch is: dots of a second, letter
// gaps of seconds. Before, the speed stopped at 5 WPM, so every element of a lamp read as a
// dash and every letter gap of a torch as a word gap.

/// `text` keyed by `fist` at `wpm` (the sender's own dot is the unit), through no noise.
private func keyed(_ text: String, fist: Fist, wpm: Double, seed: UInt64) -> [MorseEdge] {
  var random = SplitMix64(state: seed)
  let pieces = keyPieces(text, fist: fist, speed: .steady(wpm), random: &random)
  return NoisyChannel().edges(of: pieces, random: &random)
}

@Suite struct SlowLightTests {
  /// A ship's signal lamp at about 2.4 WPM: its shutter is dark for only 40-80 ms between
  /// the elements of a letter, so each mark is nearly two units long and a dash about twice
  /// a dot (not three times); a letter gap is about a dot long, a word gap three.
  @Test(arguments: [UInt64(1), 2, 3])
  func aSignalLampWithShortDarkBetweenElementsIsRead(seed: UInt64) {
    var fist = Fist()
    fist.dashUnits = 2.05
    fist.elementGapUnits = 0.063
    fist.letterGapUnits = 1.1
    fist.wordGapUnits = 3.3
    fist.jitter = 0.1
    // The unit is the lamp's dot: 0.95 s, 1.26 WPM in those terms.
    let edges = keyed("CQ CQ DE GBTT K", fist: fist, wpm: 1.26, seed: seed)
    #expect(textReceived(from: edges) == "CQ CQ DE GBTT K\n")
  }

  /// A torch flashed by hand at about 3.4 WPM, resting 2 s between letters and about 4 s
  /// between words: letter gaps of six units, which are letter gaps, not word gaps, and no
  /// line break in a word gap.
  @Test(arguments: [UInt64(1), 2, 3])
  func aHandFlashedTorchWithLongLetterGapsIsRead(seed: UInt64) {
    var fist = Fist()
    fist.letterGapUnits = 5.7
    fist.wordGapUnits = 12
    fist.jitter = 0.15
    let edges = keyed("SOS SOS HELP", fist: fist, wpm: 3.4, seed: seed)
    #expect(textReceived(from: edges) == "SOS SOS HELP\n")
  }

  /// At 1 WPM (a dot of 1.2 s, a word gap of 8.4 s) the words are words, not lines.
  @Test func oneWordPerMinuteIsRead() {
    var fist = Fist()
    fist.jitter = 0.1
    let edges = keyed("HI HI", fist: fist, wpm: 1, seed: 7)
    #expect(textReceived(from: edges) == "HI HI\n")
  }
}
