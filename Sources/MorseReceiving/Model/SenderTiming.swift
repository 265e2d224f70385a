/// A sender's own timing, as a reading learns it: the lengths of its dots and dashes, of its
/// gaps inside a character (after a dot and after a dash apart: an uneven hand lingers after
/// one), between characters and between words, each a log-normal law (a mean and a spread of
/// the length's logarithm). Its ratios are the sender's, not the ITU's 1:3:7: a signal lamp's
/// dash only twice its dot, a hand's letter gap six dots and no word gap at all.
struct SenderTiming: Sendable, Hashable {
  /// What a length is.
  enum Class: Int, CaseIterable, Sendable {
    case dot, dash, insideAfterDot, insideAfterDash, letterGap, wordGap

    /// The gap inside a character after a dash or a dot.
    static func inside(afterDash: Bool) -> Class { afterDash ? .insideAfterDash : .insideAfterDot }
  }

  /// The mean of each class's logarithm of length (seconds).
  private(set) var means: [Double]
  /// The spread of each class's logarithm of length.
  private(set) var spreads: [Double] {
    didSet { logSpreads = spreads.map(LetterShares.naturalLog) }
  }
  /// The logarithm of each spread: what every length scored pays (taken once).
  private var logSpreads: [Double]

  /// A hand's spread about any length, when nothing better is known: about a quarter.
  static let usualSpread = 0.25
  /// The narrowest and widest spread learned.
  static let spreads = 0.08...0.5
  /// How far apart (in the log) the classes are kept, however the lengths fall: a dash half
  /// as long again as a dot, a letter gap a third longer than the shorter gap inside a
  /// character, a word gap a quarter longer than a letter gap.
  static let dashOverDot = LetterShares.naturalLog(1.5)
  static let letterOverInside = LetterShares.naturalLog(1.3)
  static let wordOverLetter = LetterShares.naturalLog(1.25)

  /// Timing with these lengths (seconds): a dot, a dash, a gap inside a character (after a
  /// dash, if it differs), a letter gap and a word gap, each with the usual spread.
  init(
    dot: Double, dash: Double, inside: Double, insideAfterDash: Double? = nil, letter: Double,
    word: Double
  ) {
    let log = LetterShares.naturalLog
    means = [
      log(dot), log(dash), log(inside), log(insideAfterDash ?? inside), log(letter), log(word),
    ]
    spreads = Array(repeating: Self.usualSpread, count: Class.allCases.count)
    logSpreads = spreads.map(log)
    keepApart()
  }

  /// Timing with these laws of each class's logarithm of length (in `Class` order): the
  /// groups the lengths fell in, each spread as its group was (within `spreads`).
  init(_ laws: [TimingLearner.Group]) {
    means = laws.map(\.mean)
    spreads = laws.map { min(max($0.spread, Self.spreads.lowerBound), Self.spreads.upperBound) }
    logSpreads = spreads.map(LetterShares.naturalLog)
    keepApart()
  }

  /// How far a sender's ratios stray from the ITU's (a dash three dots, a letter gap three
  /// gaps inside a character, a word gap seven thirds of a letter gap, a gap inside a
  /// character one dot), as the spread of
  /// their logarithms: a keyer's or a program's hardly at all, a hand's or a lamp's widely (a
  /// dash of two dots, a letter gap of five). Half of senders each way.
  static let machineSpread = 0.1
  static let handSpread = 0.3
  /// A hand's or a lamp's gap inside a character strays further from its dot: a shutter dark
  /// for a tenth of a dot, a hand that lingers.
  static let handInsideSpread = 0.8

  /// How likely a sender is to time as this (a log): its ratios against the ITU's, as a
  /// machine's or a hand's. What decides, with the letters, between timings that fit the
  /// lengths alike: gaps seven times the gap inside a character are word gaps between
  /// one-letter words (`R R R`) more likely than letter gaps, those five times it letter
  /// gaps.
  var logPrior: Double {
    let log = LetterShares.naturalLog
    let inside = min(means[Class.insideAfterDot.rawValue], means[Class.insideAfterDash.rawValue])
    let strays = [
      means[Class.dash.rawValue] - means[Class.dot.rawValue] - log(3),
      means[Class.letterGap.rawValue] - inside - log(3),
      means[Class.wordGap.rawValue] - means[Class.letterGap.rawValue] - log(7.0 / 3),
      inside - means[Class.dot.rawValue],
    ]
    func score(_ spreads: [Double]) -> Double {
      zip(strays, spreads).reduce(0) { sum, pair in
        let distance = pair.0 / pair.1
        return sum - distance * distance / 2 - log(pair.1)
      }
    }
    let machine = score(Array(repeating: Self.machineSpread, count: strays.count))
    let hand = score([Self.handSpread, Self.handSpread, Self.handSpread, Self.handInsideSpread])
    let most = max(machine, hand)
    // A hand that lingers after a dash (as long as between letters) is rare, and keys TE as
    // it keys N: only where its gaps show it does it pay for the letters it merges.
    let lingers =
      means[Class.insideAfterDash.rawValue] - means[Class.insideAfterDot.rawValue] > log(1.5)
    return most
      + log(
        (LetterShares.exponential(machine - most) + LetterShares.exponential(hand - most)) / 2)
      + (lingers ? Self.logLingering : 0)
  }

  /// How often a sender lingers after a dash, as a log: one in ten thousand.
  static let logLingering = LetterShares.naturalLog(1e-4)

  /// The mean length of `kind`, in seconds.
  func length(_ kind: Class) -> Double { LetterShares.exponential(means[kind.rawValue]) }

  /// The log-likelihood of a length whose logarithm is `logLength`, as `kind`.
  func score(_ logLength: Double, as kind: Class) -> Double {
    let spread = spreads[kind.rawValue]
    let distance = (logLength - means[kind.rawValue]) / spread
    return -distance * distance / 2 - logSpreads[kind.rawValue]
  }

  /// Learns anew from the lengths a reading classed (`logLengths` by class), each class
  /// pulled toward what it was by `weight` lengths' worth: a class with none keeps its
  /// length, one with few moves part of the way.
  mutating func learn(from logLengths: [[Double]], weight: Double = 2) {
    for kind in Class.allCases {
      let values = logLengths[kind.rawValue]
      guard !values.isEmpty else { continue }
      let mean = means[kind.rawValue]
      let count = Double(values.count)
      let newMean = (weight * mean + values.reduce(0, +)) / (weight + count)
      let squares = values.reduce(0) { $0 + ($1 - newMean) * ($1 - newMean) }
      let variance = (weight * Self.usualSpread * Self.usualSpread + squares) / (weight + count)
      means[kind.rawValue] = newMean
      spreads[kind.rawValue] = min(
        max(variance.squareRoot(), Self.spreads.lowerBound), Self.spreads.upperBound)
    }
    keepApart()
  }

  /// Keeps the classes in their order and apart (`dashOverDot`, …): the longer one moved up.
  private mutating func keepApart() {
    func atLeast(_ kind: Class, _ floor: Double) {
      means[kind.rawValue] = max(means[kind.rawValue], floor)
    }
    atLeast(.dash, means[Class.dot.rawValue] + Self.dashOverDot)
    let shorterInside = min(
      means[Class.insideAfterDot.rawValue], means[Class.insideAfterDash.rawValue])
    atLeast(.letterGap, shorterInside + Self.letterOverInside)
    atLeast(.wordGap, means[Class.letterGap.rawValue] + Self.wordOverLetter)
  }
}
