import MorseCore

/// A hand whose gaps cannot tell letters apart: where a gap is as likely the gap inside a
/// character as the gap between two, the word is held and, once it ends, read the way that
/// makes the likeliest text.
///
/// Some senders hold each gap inside a character as long as the mark before it (a screen
/// flashed by an app, a hand that lingers after a dash): the gaps inside an `O` are then as
/// long as the gap between letters, and `SOS` reads `STTTS`. The gaps after dots and after
/// dashes are kept apart (the shortest quarter of each is that mark's gap inside a
/// character); where one is half as long again as the other (an uneven hand), a gap after
/// that mark whose length fits both it and the letter gap, within a margin, is doubtful.
/// The word is then held until it ends (a word gap, a long silence, the end), and cut into
/// characters where the gaps' lengths and the characters' frequencies in text (an `O` and an
/// `S` far more often than `T T T S`, a `:` or `M B`) together say most likely. A word
/// without a doubtful gap is read as it comes, and an even hand's never is: clean sending
/// prints as soon as ever.
struct UnevenHand: Sendable, Hashable {
  /// An element of the word: a dash or a dot, and the gap after it (nil: none yet).
  struct Element: Sendable, Hashable {
    var isDash: Bool
    var gap: Double?
  }

  /// The elements since the last character read: the character being keyed, or the word
  /// held.
  private(set) var elements: [Element] = []
  /// Whether the word is held until it ends.
  private(set) var isHolding = false
  /// The last gaps after dots and after dashes (seconds), under a word gap.
  private var afterDots: [Double] = []
  private var afterDashes: [Double] = []

  /// The spread of a gap's length about what it is expected to be, as a factor (a hand's
  /// quarter either way).
  static let spread = 0.25
  /// How much likelier one reading of a gap must be (in the log of the odds) for it not to
  /// be doubtful.
  static let margin = 2.0
  /// The most elements held: a word held longer is read at once.
  static let longestHeld = 24

  /// Whether the last mark was a dash (nil: none yet), whether or not its character was
  /// read since.
  private var isLastDash: Bool?

  /// A mark: a dot or a dash.
  mutating func mark(isDash: Bool) {
    elements.append(Element(isDash: isDash, gap: nil))
    isLastDash = isDash
  }

  /// The gap after the last mark, `gap` seconds, kept for the marks' gaps inside characters
  /// if under `wordGap` (also when its character was read before the gap ended).
  mutating func gap(_ gap: Double, under wordGap: Double) {
    if let last = elements.indices.last { elements[last].gap = gap }
    guard gap < wordGap, let isLastDash else { return }
    if isLastDash {
      afterDashes.append(gap)
      if afterDashes.count > 16 { afterDashes.removeFirst() }
    } else {
      afterDots.append(gap)
      if afterDots.count > 16 { afterDots.removeFirst() }
    }
  }

  /// Whether `gap` after the last mark (its gap, if nil) fits both the gap inside a character
  /// and `letterGap` (each with `floor` added), after a mark whose gap inside a character is
  /// half as long again as the other mark's at least (an uneven hand), so that the word is to
  /// be held.
  func isDoubtful(_ gap: Double? = nil, letterGap: Double, floor: Double) -> Bool {
    guard let last = elements.last, let gap = gap ?? last.gap,
      let inside = insideGap(afterDash: last.isDash),
      let other = insideGap(afterDash: !last.isDash), inside >= 1.5 * other
    else { return false }
    let costs = (Self.cost(gap, inside, floor), Self.cost(gap, letterGap, floor))
    return abs(costs.0 - costs.1) < Self.margin
  }

  /// Forgets the gaps seen after dots and dashes (a new sender).
  mutating func forgetGaps() {
    afterDots = []
    afterDashes = []
  }

  /// Holds the word until it ends.
  mutating func hold() { isHolding = true }

  /// Forgets the elements (a character was read), holding nothing.
  mutating func clear() {
    elements = []
    isHolding = false
  }

  /// The held word's codes, cut where the gaps and the characters' frequencies say most
  /// likely (the letter gap `letterGap`, the characters of `alphabet`); if no cut makes
  /// characters of them all, cut at the gaps of `letterThreshold` or more. Holds nothing
  /// after.
  mutating func resolve(
    letterGap: Double, letterThreshold: Double, floor: Double, alphabet: NationalAlphabet
  ) -> [String] {
    defer { clear() }
    let count = elements.count
    guard count > 0 else { return [] }
    // The best score of the first `end` elements cut into characters, and where its last
    // character began.
    var best = [(score: Double, start: Int)?](repeating: nil, count: count + 1)
    best[0] = (0, 0)
    for end in 1...count {
      for start in max(0, end - 7)..<end {
        guard let before = best[start]?.score,
          let text = Self.text(elements[start..<end], alphabet: alphabet)
        else { continue }
        var score = before + LetterShares.logShare(of: text)
        for index in start..<(end - 1) {
          let inside = insideGap(afterDash: elements[index].isDash) ?? letterGap / 3
          score -= Self.cost(elements[index].gap ?? 0, inside, floor)
        }
        if end < count { score -= Self.cost(elements[end - 1].gap ?? 0, letterGap, floor) }
        if score > best[end]?.score ?? -.infinity { best[end] = (score, start) }
      }
    }
    guard best[count] != nil else {
      var codes = [""]
      for element in elements {
        codes[codes.count - 1].append(element.isDash ? "-" : ".")
        if let gap = element.gap, gap >= letterThreshold { codes.append("") }
      }
      return codes.filter { !$0.isEmpty }
    }
    var codes: [String] = []
    var end = count
    while end > 0, let (_, start) = best[end] {
      codes.insert(Self.code(elements[start..<end]), at: 0)
      end = start
    }
    return codes
  }

  /// The gap inside a character after a dash or a dot: the shortest quarter of those seen
  /// (three at least).
  private func insideGap(afterDash: Bool) -> Double? {
    let gaps = (afterDash ? afterDashes : afterDots).sorted()
    guard gaps.count >= 3 else { return nil }
    return gaps[gaps.count / 4]
  }

  /// How unlikely a gap of `gap` is where `expected` was: half the square of the log of their
  /// ratio over the spread, each with `floor` added (a short gap is timed no better than
  /// that: a frame of video, a key's bounce).
  private static func cost(_ gap: Double, _ expected: Double, _ floor: Double) -> Double {
    let distance =
      LetterShares.naturalLog((max(gap, 0) + floor) / (max(expected, 0) + floor)) / spread
    return distance * distance / 2
  }

  /// `.` and `-` for `elements`.
  private static func code(_ elements: ArraySlice<Element>) -> String {
    String(elements.map { $0.isDash ? "-" : "." })
  }

  /// The character `elements` make in `alphabet`, if any.
  private static func text(_ elements: ArraySlice<Element>, alphabet: NationalAlphabet) -> String? {
    MorseCode(code(elements)).flatMap { MorseAlphabet.text(for: $0, alphabet: alphabet) }
  }
}
