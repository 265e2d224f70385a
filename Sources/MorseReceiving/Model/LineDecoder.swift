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

  /// The likeliest reading of `elements` under `timing`; none may span `boundary` (a
  /// character boundary decided before: its marks on either side are read apart).
  func decode(_ elements: [Element], timing: SenderTiming, boundary: Int? = nil) -> Reading {
    let count = elements.count
    guard count > 0 else { return Reading(score: 0, characters: [], isDash: [], gaps: []) }
    var markScores: [(dot: Double, dash: Double)] = []
    var insideScores: [(afterDot: Double, afterDash: Double)] = []
    var boundaries: [(score: Double, isWord: Bool)] = []
    markScores.reserveCapacity(count)
    for element in elements {
      let length = element.logMark
      markScores.append((timing.score(length, as: .dot), timing.score(length, as: .dash)))
      guard let gapLength = element.logGap else {
        insideScores.append((-.infinity, -.infinity))
        boundaries.append((0, false))
        continue
      }
      insideScores.append(
        (
          timing.score(gapLength, as: .insideAfterDot),
          timing.score(gapLength, as: .insideAfterDash)
        ))
      let letter = timing.score(gapLength, as: .letterGap) + Self.logLetterEnd
      let word = timing.score(gapLength, as: .wordGap) + Self.logWordEnd
      boundaries.append(word > letter ? (word, true) : (letter, false))
    }
    // The best score of the first `end` marks read as whole characters, and the character
    // that ends there: its first mark, its key (nil: no meaning), whether it was cut.
    var best = [Double](repeating: -.infinity, count: count + 1)
    var back = [(start: Int, key: Int?, isCut: Bool)](
      repeating: (0, nil, false), count: count + 1)
    best[0] = 0
    func consider(_ start: Int, _ end: Int, _ score: Double, _ key: Int?, _ isCut: Bool) {
      let total = best[start] + score + (end < count ? boundaries[end - 1].score : 0)
      if total > best[end] {
        best[end] = total
        back[end] = (start, key, isCut)
      }
    }
    var states: [(key: Int, score: Double)] = []
    var next: [(key: Int, score: Double)] = []
    for start in 0..<count where best[start] > -.infinity {
      let limit = boundary.map { start < $0 ? $0 : count } ?? count
      states = [(CodeTable.empty, 0)]
      for index in start..<min(start + table.longestCode, limit) {
        next.removeAll(keepingCapacity: true)
        let marks = markScores[index]
        for state in states {
          for isDash in [false, true] {
            let markScore = isDash ? marks.dash : marks.dot
            guard markScore + Self.sureMark >= max(marks.dot, marks.dash) else { continue }
            let key = CodeTable.key(state.key, appending: isDash)
            guard table.begins(key) else { continue }
            let score = state.score + markScore
            if table.text(of: key) != nil {
              consider(start, index + 1, score + table.logShare(of: key), key, false)
            }
            if index + 1 < limit {
              let inside = insideScores[index]
              next.append((key, score + (isDash ? inside.afterDash : inside.afterDot)))
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
        let marks = markScores[index]
        let isDash = marks.dash > marks.dot
        score += max(marks.dot, marks.dash)
        key = index - start < CodeTable.longest ? CodeTable.key(key, appending: isDash) : 0
        let inside = isDash ? insideScores[index].afterDash : insideScores[index].afterDot
        let length = index - start + 1
        let isEnd = index + 1 == limit || boundaries[index].score >= inside
        if isEnd || length == Self.longestRun {
          if table.text(of: key) == nil {
            consider(start, index + 1, score + Self.logUnknown, nil, !isEnd)
          }
          break
        }
        score += inside
      }
    }
    // Back from the end: the characters, their marks' classes and their gaps'.
    var characters: [Character] = []
    var isDash = [Bool](repeating: false, count: count)
    var gaps = [Gap](repeating: .inside, count: elements.last?.gap == nil ? count - 1 : count)
    var end = count
    while end > 0 {
      let (start, key, isCut) = back[end]
      for index in start..<end {
        if let key {
          isDash[index] = (key >> (end - 1 - index)) & 1 == 1
        } else {
          isDash[index] = markScores[index].dash > markScores[index].dot
        }
      }
      if end - 1 < gaps.count {
        gaps[end - 1] = end < count ? (boundaries[end - 1].isWord ? .word : .letter) : .letter
      }
      let code = String((start..<end).map { isDash[$0] ? "-" : "." })
      characters.append(
        Character(
          marks: start..<end, code: code, text: key.flatMap { table.text(of: $0) },
          isAfterWordGap: start > 0 && boundaries[start - 1].isWord, isCut: isCut))
      end = start
    }
    return Reading(
      score: best[count], characters: characters.reversed(), isDash: isDash, gaps: gaps)
  }
}
