/// Reads a stretch of marks and gaps whole: the likeliest characters they make under a
/// sender's timing (`SenderTiming`), by dynamic programming over where characters begin
/// (Viterbi's algorithm over the marks, each a dot or a dash, each gap inside a character or
/// between two or between words).
///
/// A reading scores each mark and gap by its length's likelihood in its class, each
/// character by how often it comes in text (`LetterShares`), and each gap between characters
/// by how often words end (one character in five): where lengths say little (a gap as long
/// inside a character as between two, a mark between a dot and a dash), the letters decide.
/// A run of marks that makes no character with a meaning is kept whole where its gaps say it
/// is one (shown `[......]`), at the cost of one character in a million.
struct LineDecoder {
  /// A mark and the gap after it (nil: the end of the stretch), in seconds, with the logs
  /// of both: what every timing scores them by (taken once, not for each timing tried).
  struct Element: Sendable, Hashable {
    let mark: Double
    let gap: Double?
    let logMark: Double
    let logGap: Double?

    init(mark: Double, gap: Double?) {
      self.mark = mark
      self.gap = gap
      logMark = LetterShares.naturalLog(max(mark, 1e-4))
      logGap = gap.map { LetterShares.naturalLog(max($0, 1e-4)) }
    }

    /// The same, `scale` times as long.
    func scaled(by scale: Double) -> Element {
      Element(mark: mark * scale, gap: gap.map { $0 * scale })
    }
  }

  /// What a gap was read as.
  enum Gap: Sendable, Hashable {
    case inside, letter, word
  }

  /// A character read: its marks, its code, and its text (nil: a code with no meaning).
  struct Character: Sendable, Hashable {
    /// The marks it was read from (indices into the elements).
    var marks: Range<Int>
    /// Its dots and dashes.
    var code: String
    /// Its text, if the code has one.
    var text: String?
    /// Whether a word gap came before it.
    var isAfterWordGap: Bool
    /// Whether its code was cut at `longestRun` elements (a light that only blinks).
    var isCut: Bool
    /// How much likelier (a log) the reading is than the likeliest that reads this character
    /// otherwise (`LineDecoder.margins`, and other timings' readings): infinite until known.
    var margin = Double.infinity

    /// What it reads as, where: two readings that agree on it agree on this.
    var reading: Said { Said(marks: marks, code: code, isAfterWordGap: isAfterWordGap) }

    /// A character as read: its marks, its code, whether a word gap came before it.
    struct Said: Hashable {
      let marks: Range<Int>
      let code: String
      let isAfterWordGap: Bool
    }
  }

  /// The likeliest reading.
  struct Reading: Sendable, Hashable {
    /// Its log-likelihood.
    var score: Double
    /// The characters, in order.
    var characters: [Character]
    /// Whether each mark is a dash.
    var isDash: [Bool]
    /// What each gap was read as (one per element but the last if it has none).
    var gaps: [Gap]

    /// The text as a person reads it, a space for each word gap.
    var text: String {
      var text = ""
      for character in characters {
        if character.isAfterWordGap { text += " " }
        text += character.text ?? "[\(character.code)]"
      }
      return text
    }
  }

  /// How often a character ends a word, and how often it does not, as logs.
  static let logWordEnd = LetterShares.naturalLog(0.2)
  static let logLetterEnd = LetterShares.naturalLog(0.8)
  /// How often a code with no meaning is sent, as a log.
  static let logUnknown = LetterShares.naturalLog(1e-6)
  /// The most elements of a code with no meaning kept (then cut).
  static let longestRun = 64
  /// How much likelier (a log) one class of a mark must be for the other not to be tried.
  static let sureMark = 12.0

  let table: CodeTable

  /// Each mark's score as a dot and as a dash, each gap's inside a character (after a dot,
  /// after a dash), and between characters (the likelier of a letter gap and a word gap, and
  /// each apart), under a timing.
  struct Scores {
    var marks: [(dot: Double, dash: Double)] = []
    var inside: [(afterDot: Double, afterDash: Double)] = []
    var letter: [Double] = []
    var word: [Double] = []
    var boundaries: [(score: Double, isWord: Bool)] = []

    init(_ elements: [Element], timing: SenderTiming) {
      let count = elements.count
      marks.reserveCapacity(count)
      inside.reserveCapacity(count)
      boundaries.reserveCapacity(count)
      letter.reserveCapacity(count)
      word.reserveCapacity(count)
      for element in elements {
        let length = element.logMark
        marks.append((timing.score(length, as: .dot), timing.score(length, as: .dash)))
        guard let gapLength = element.logGap else {
          inside.append((-.infinity, -.infinity))
          letter.append(0)
          word.append(-.infinity)
          boundaries.append((0, false))
          continue
        }
        inside.append(
          (
            timing.score(gapLength, as: .insideAfterDot),
            timing.score(gapLength, as: .insideAfterDash)
          ))
        let letterScore = timing.score(gapLength, as: .letterGap) + LineDecoder.logLetterEnd
        let wordScore = timing.score(gapLength, as: .wordGap) + LineDecoder.logWordEnd
        letter.append(letterScore)
        word.append(wordScore)
        boundaries.append(wordScore > letterScore ? (wordScore, true) : (letterScore, false))
      }
    }

    /// The score of the gap after mark `index` inside a character, after a dash or a dot.
    func inside(_ index: Int, afterDash: Bool) -> Double {
      afterDash ? inside[index].afterDash : inside[index].afterDot
    }
  }

  /// Each character that may begin at mark `start` and end before `limit`, handed to `body`
  /// with where it ends, its score (its marks, the gaps inside it and its share of text), its
  /// key (nil: a run with no meaning) and whether it was cut.
  @inline(__always)
  private func characters(
    from start: Int, before limit: Int, _ scores: Scores,
    _ body: (_ end: Int, _ score: Double, _ key: Int?, _ isCut: Bool) -> Void
  ) {
    var states: [(key: Int, score: Double)] = [(CodeTable.empty, 0)]
    var next: [(key: Int, score: Double)] = []
    for index in start..<min(start + table.longestCode, limit) {
      next.removeAll(keepingCapacity: true)
      let marks = scores.marks[index]
      for state in states {
        for isDash in [false, true] {
          let markScore = isDash ? marks.dash : marks.dot
          guard markScore + Self.sureMark >= max(marks.dot, marks.dash) else { continue }
          let key = CodeTable.key(state.key, appending: isDash)
          guard table.begins(key) else { continue }
          let score = state.score + markScore
          if table.text(of: key) != nil {
            body(index + 1, score + table.logShare(of: key), key, false)
          }
          if index + 1 < limit {
            next.append((key, score + scores.inside(index, afterDash: isDash)))
          }
        }
      }
      swap(&states, &next)
      if states.isEmpty { break }
    }
    // The run its gaps make one character, if it has no meaning: each mark as its length
    // says, up to the first gap likelier between characters.
    var key = CodeTable.empty
    var score = 0.0
    for index in start..<limit {
      let marks = scores.marks[index]
      let isDash = marks.dash > marks.dot
      score += max(marks.dot, marks.dash)
      key = index - start < CodeTable.longest ? CodeTable.key(key, appending: isDash) : 0
      let inside = scores.inside(index, afterDash: isDash)
      let length = index - start + 1
      let isEnd = index + 1 == limit || scores.boundaries[index].score >= inside
      if isEnd || length == Self.longestRun {
        if table.text(of: key) == nil {
          body(index + 1, score + Self.logUnknown, nil, !isEnd)
        }
        break
      }
      score += inside
    }
  }

  /// Whether mark `index` is a dash in the character from `start` to `end` of `key` (nil: a
  /// run with no meaning, each mark as its length says).
  private static func isDash(_ index: Int, start: Int, end: Int, key: Int?, _ scores: Scores)
    -> Bool
  {
    guard let key else { return scores.marks[index].dash > scores.marks[index].dot }
    return (key >> (end - 1 - index)) & 1 == 1
  }

  /// The likeliest reading of `elements` under `timing`; none may span `boundary` (a
  /// character boundary decided before: its marks on either side are read apart).
  func decode(_ elements: [Element], timing: SenderTiming, boundary: Int? = nil) -> Reading {
    let count = elements.count
    guard count > 0 else { return Reading(score: 0, characters: [], isDash: [], gaps: []) }
    let scores = Scores(elements, timing: timing)
    let best = forward(scores, count: count, boundary: boundary)
    // Back from the end: the characters, their marks' classes and their gaps'.
    var characters: [Character] = []
    var isDash = [Bool](repeating: false, count: count)
    var gaps = [Gap](repeating: .inside, count: elements.last?.gap == nil ? count - 1 : count)
    var end = count
    while end > 0 {
      let (_, start, key, isCut) = best[end]
      for index in start..<end {
        isDash[index] = Self.isDash(index, start: start, end: end, key: key, scores)
      }
      if end - 1 < gaps.count {
        gaps[end - 1] =
          end < count ? (scores.boundaries[end - 1].isWord ? .word : .letter) : .letter
      }
      let code = String((start..<end).map { isDash[$0] ? "-" : "." })
      characters.append(
        Character(
          marks: start..<end, code: code, text: key.flatMap { table.text(of: $0) },
          isAfterWordGap: start > 0 && scores.boundaries[start - 1].isWord, isCut: isCut))
      end = start
    }
    return Reading(
      score: best[count].score, characters: characters.reversed(), isDash: isDash, gaps: gaps)
  }

  /// The best score of the first `end` marks read as whole characters (with the gap after
  /// them between characters), and the character that ends there: its first mark, its key
  /// (nil: no meaning), whether it was cut (Viterbi's forward pass).
  private func forward(_ scores: Scores, count: Int, boundary: Int?)
    -> [(score: Double, start: Int, key: Int?, isCut: Bool)]
  {
    var best = [(score: Double, start: Int, key: Int?, isCut: Bool)](
      repeating: (-.infinity, 0, nil, false), count: count + 1)
    best[0].score = 0
    for start in 0..<count where best[start].score > -.infinity {
      let limit = boundary.map { start < $0 ? $0 : count } ?? count
      let before = best[start].score
      characters(from: start, before: limit, scores) { end, score, key, isCut in
        let total = before + score + (end < count ? scores.boundaries[end - 1].score : 0)
        if total > best[end].score { best[end] = (total, start, key, isCut) }
      }
    }
    return best
  }

  /// How much likelier `reading` (of `elements` under `timing`, `boundary` as it was read
  /// with) is than the likeliest reading that reads each of its characters otherwise (a log;
  /// infinite where nothing else could be read): the least of the margins of its marks (a
  /// dot, not a dash), of the gaps inside it and of the gaps either side (inside a character,
  /// between two, between words). Max-marginals over the same lattice, forward and back.
  func margins(
    _ elements: [Element], timing: SenderTiming, boundary: Int? = nil, of reading: Reading
  )
    -> [Double]
  {
    let count = elements.count
    guard count > 0 else { return [] }
    let scores = Scores(elements, timing: timing)
    let best = forward(scores, count: count, boundary: boundary)
    var candidates: [(start: Int, end: Int, score: Double, key: Int?)] = []
    for start in 0..<count where best[start].score > -.infinity {
      let limit = boundary.map { start < $0 ? $0 : count } ?? count
      characters(from: start, before: limit, scores) { end, score, key, _ in
        candidates.append((start, end, score, key))
      }
    }
    func after(_ end: Int) -> Double { end < count ? scores.boundaries[end - 1].score : 0 }
    // The best score of the marks from `start` to the end read as whole characters.
    var rest = [Double](repeating: -.infinity, count: count + 1)
    rest[count] = 0
    for candidate in candidates.sorted(by: { $0.start > $1.start }) {
      let total = candidate.score + after(candidate.end) + rest[candidate.end]
      rest[candidate.start] = max(rest[candidate.start], total)
    }
    let total = best[count].score
    // The best whole reading with each mark read otherwise, with each gap inside a
    // character, and with each gap between characters (letter and word apart).
    var otherMark = [Double](repeating: -.infinity, count: count)
    var inside = [Double](repeating: -.infinity, count: count)
    for candidate in candidates where best[candidate.start].score > -.infinity {
      let through =
        best[candidate.start].score + candidate.score + after(candidate.end) + rest[candidate.end]
      for index in candidate.start..<candidate.end {
        let isDash = Self.isDash(
          index, start: candidate.start, end: candidate.end, key: candidate.key, scores)
        if isDash != reading.isDash[index] { otherMark[index] = max(otherMark[index], through) }
        if index + 1 < candidate.end { inside[index] = max(inside[index], through) }
      }
    }
    // The margin of the gap after mark `index` (none at the end).
    func gapMargin(_ index: Int) -> Double {
      guard index + 1 < count, index < reading.gaps.count else { return .infinity }
      let end = index + 1
      let around = best[end].score - scores.boundaries[index].score + rest[end]
      var rival: Double
      switch reading.gaps[index] {
      case .inside: rival = around + scores.boundaries[index].score
      case .letter: rival = max(inside[index], around + scores.word[index])
      case .word: rival = max(inside[index], around + scores.letter[index])
      }
      if !(rival > -.infinity) { rival = -.infinity }
      return total - rival
    }
    return reading.characters.map { character in
      var margin = Double.infinity
      for index in character.marks {
        margin = min(margin, total - otherMark[index], gapMargin(index))
      }
      if character.marks.lowerBound > 0 {
        margin = min(margin, gapMargin(character.marks.lowerBound - 1))
      }
      return max(margin, 0)
    }
  }
}
