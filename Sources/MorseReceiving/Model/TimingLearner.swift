/// Learns a sender's timing from a stretch of its own marks and gaps, and reads them with
/// it: the lengths' own groups (two of marks; one to three of gaps, since a message may have
/// no word gap, or be one letter) give the ways the timing may be, each is refined on what
/// the reading under it classes (hard expectation-maximisation), and the reading that scores
/// best whole (lengths and letters together, `LineDecoder`) is taken.
///
/// A hint (`--wpm`, `--farnsworth`) is one more way the timing may be, the one a reading
/// starts from when the lengths cannot tell: it is weighed with the others, never ignored.
struct TimingLearner {
  /// What the sender is said to be, if anything: a dot (seconds), a Farnsworth spacing unit.
  struct Hint: Sendable, Hashable {
    /// The dot, in seconds.
    var dot: Double?
    /// The overall speed of Farnsworth spacing, in words per minute.
    var farnsworthWPM: Double?
  }

  /// A reading with the timing it was read by.
  struct Result: Sendable {
    var reading: LineDecoder.Reading
    var timing: SenderTiming
  }

  /// How far from the expected speed a sender may be, as the spread of the dot's logarithm:
  /// a speed a third of the hint's or three times it costs what one rare letter does.
  static let hintSpread = 0.7
  /// Rounds of learning on what a reading classed.
  static let rounds = 2
  /// The ways of the timing refined (the best first readings).
  static let refined = 3

  let decoder: LineDecoder
  let hint: Hint

  /// The likeliest reading of `elements`, its timing learned from them (`boundary`: as
  /// `LineDecoder.decode`).
  func read(_ elements: [LineDecoder.Element], boundary: Int? = nil) -> Result {
    let candidates = timings(for: elements)
    var readings = candidates.map { timing in
      (timing: timing, reading: decode(elements, timing, boundary))
    }
    readings.sort { $0.reading.score > $1.reading.score }
    var refined: [(timing: SenderTiming, reading: LineDecoder.Reading)] = []
    for (start, first) in readings.prefix(Self.refined) {
      var (timing, reading) = (start, first)
      for _ in 0..<Self.rounds {
        var learned = timing
        learned.learn(from: Self.logLengths(elements, reading))
        let next = decode(elements, learned, boundary)
        guard next.score > reading.score else { break }
        (timing, reading) = (learned, next)
      }
      refined.append((timing, reading))
    }
    let all = refined + readings.dropFirst(Self.refined)
    guard let best = all.max(by: { $0.reading.score < $1.reading.score }) else {
      let timing = Self.standard(dot: hint.dot ?? 0.08)
      return Result(reading: decoder.decode(elements, timing: timing), timing: timing)
    }
    var reading = best.reading
    let margins = decoder.margins(elements, timing: best.timing, boundary: boundary, of: reading)
    // The likeliest reading under another timing that reads otherwise: each character it
    // does not read as this one is as sure as the scores differ, at most.
    let text = reading.text
    let rival = all.filter { $0.reading.text != text }.max { $0.reading.score < $1.reading.score }
    let agreed = Set((rival?.reading.characters ?? []).map(\.reading))
    for index in reading.characters.indices {
      var margin = margins[index]
      if let rival, !agreed.contains(reading.characters[index].reading) {
        margin = min(margin, reading.score - rival.reading.score)
      }
      reading.characters[index].margin = margin
    }
    return Result(reading: reading, timing: best.timing)
  }

  /// `decoder`'s reading of `elements` under `timing`, scored with how likely a sender is to
  /// time so.
  private func decode(
    _ elements: [LineDecoder.Element], _ timing: SenderTiming, _ boundary: Int?
  ) -> LineDecoder.Reading {
    var reading = decoder.decode(elements, timing: timing, boundary: boundary)
    reading.score += timing.logPrior
    if let dot = hint.dot {
      // The expected speed, as a prior on the dot: what decides when the lengths cannot (a
      // lone mark, a dot or a dash), without outweighing what they show.
      let log = LetterShares.naturalLog
      let distance = (log(timing.length(.dot)) - log(dot)) / Self.hintSpread
      reading.score -= distance * distance / 2
    }
    return reading
  }

  /// The ITU's timing at a dot of `dot` seconds.
  static func standard(dot: Double) -> SenderTiming {
    SenderTiming(dot: dot, dash: 3 * dot, inside: dot, letter: 3 * dot, word: 7 * dot)
  }

  /// The ways the timing of `elements` may be: each grouping of the marks (two lengths; or
  /// one, all dots or all dashes) with each grouping of the gaps (three groups; two, as the
  /// gaps inside and between characters or between characters and words; one, as any of the
  /// three), and the hint's.
  func timings(for elements: [LineDecoder.Element]) -> [SenderTiming] {
    let log = LetterShares.naturalLog
    let marks = elements.map(\.logMark).sorted()
    let gaps = elements.compactMap(\.logGap).sorted()
    let (three, seven, sevenThirds) = (log(3), log(7), log(7.0 / 3))
    // A length not grouped (the ratios' standard from one that is) has the usual spread.
    let usual = { (mean: Double) in Group(mean: mean, spread: SenderTiming.usualSpread) }
    var markWays: [(dot: Group, dash: Group)] = []
    if let groups = Self.groups(marks, count: 2), groups[1].mean - groups[0].mean >= log(1.6) {
      markWays.append((groups[0], groups[1]))
    } else if let middle = Self.median(marks) {
      markWays += [(usual(middle), usual(middle + three)), (usual(middle - three), usual(middle))]
    }
    if let dot = hint.dot { markWays.append((usual(log(dot)), usual(log(dot) + three))) }
    var gapWays: [(inside: Group, letter: Group, word: Group)] = []
    if let groups = Self.groups(gaps, count: 3), groups[1].mean - groups[0].mean >= log(1.3),
      groups[2].mean - groups[1].mean >= log(1.2)
    {
      gapWays.append((groups[0], groups[1], groups[2]))
    }
    if let groups = Self.groups(gaps, count: 2), groups[1].mean - groups[0].mean >= log(1.2) {
      gapWays.append((groups[0], groups[1], usual(groups[1].mean + sevenThirds)))
      gapWays.append((usual(groups[0].mean - three), groups[0], groups[1]))
      gapWays.append((groups[0], usual(groups[0].mean + three), groups[1]))
    }
    if let middle = Self.median(gaps) {
      gapWays.append((usual(middle - three), usual(middle), usual(middle + sevenThirds)))
      gapWays.append((usual(middle), usual(middle + three), usual(middle + seven)))
      gapWays.append((usual(middle - seven), usual(middle - sevenThirds), usual(middle)))
    }
    var timings: [SenderTiming] = []
    for marks in markWays {
      let dot = marks.dot.mean
      var ways =
        gapWays + [(marks.dot, usual(dot + three), usual(dot + seven))]
      if let overall = hint.farnsworthWPM {
        let unit = MorseReceiver.farnsworthUnit(
          characterWPM: 1.2 / LetterShares.exponential(dot), overallWPM: overall)
        ways.append((marks.dot, usual(log(3 * unit)), usual(log(7 * unit))))
      }
      for gaps in ways {
        // As timed, and as an uneven hand times it: lingering after a dash as long as between
        // letters (a screen flashed by an app, a hand that holds on after a long mark).
        for afterDash in [gaps.inside, gaps.letter] {
          timings.append(
            SenderTiming([marks.dot, marks.dash, gaps.inside, afterDash, gaps.letter, gaps.word]))
        }
      }
    }
    return timings
  }

  /// The logarithms of `elements`' lengths by the class `reading` gave them.
  static func logLengths(_ elements: [LineDecoder.Element], _ reading: LineDecoder.Reading)
    -> [[Double]]
  {
    var lengths = [[Double]](repeating: [], count: SenderTiming.Class.allCases.count)
    for (index, element) in elements.enumerated() {
      let isDash = reading.isDash[index]
      lengths[(isDash ? SenderTiming.Class.dash : .dot).rawValue].append(element.logMark)
      guard let gap = element.logGap, index < reading.gaps.count else { continue }
      let kind: SenderTiming.Class
      switch reading.gaps[index] {
      case .inside: kind = .inside(afterDash: isDash)
      case .letter: kind = .letterGap
      case .word: kind = .wordGap
      }
      // The gap after the last mark is the end of the stretch, not a letter gap.
      if index == elements.count - 1 { continue }
      lengths[kind.rawValue].append(gap)
    }
    return lengths
  }

  /// The middle of `sorted`, if any.
  static func median(_ sorted: [Double]) -> Double? {
    sorted.isEmpty ? nil : sorted[sorted.count / 2]
  }

  /// A group of lengths' logarithms: their mean and their spread about it.
  struct Group: Sendable, Hashable {
    var mean: Double
    var spread: Double
  }

  /// The `count` groups `sorted` divides into with the least spread within them
  /// (one-dimensional k-means, solved exactly by dynamic programming over where each group
  /// begins), lowest first; nil for fewer values than groups. Over 400 values, their
  /// quantiles stand for them.
  static func groups(_ sorted: [Double], count: Int) -> [Group]? {
    guard sorted.count >= count, count >= 1 else { return nil }
    let values =
      sorted.count <= 400
      ? sorted : (0..<400).map { sorted[$0 * (sorted.count - 1) / 399] }
    let total = values.count
    var sums = [0.0]
    var squares = [0.0]
    for value in values {
      sums.append(sums.last! + value)
      squares.append(squares.last! + value * value)
    }
    // The spread of values[from..<to] about their mean.
    func cost(_ from: Int, _ to: Int) -> Double {
      let sum = sums[to] - sums[from]
      return squares[to] - squares[from] - sum * sum / Double(to - from)
    }
    // best[k][end]: the least spread of values[..<end] in k + 1 groups, and where the last
    // group begins.
    var best = [[(cost: Double, start: Int)]](
      repeating: [(cost: Double, start: Int)](repeating: (.infinity, 0), count: total + 1),
      count: count)
    for end in 1...total { best[0][end] = (cost(0, end), 0) }
    for group in 1..<count {
      for end in (group + 1)...total {
        for start in group..<end where best[group - 1][start].cost < .infinity {
          let value = best[group - 1][start].cost + cost(start, end)
          if value < best[group][end].cost { best[group][end] = (value, start) }
        }
      }
    }
    var groups: [Group] = []
    var end = total
    for group in stride(from: count - 1, through: 0, by: -1) {
      let start = best[group][end].start
      guard end > start else { return nil }
      let size = Double(end - start)
      groups.append(
        Group(
          mean: (sums[end] - sums[start]) / size,
          spread: (max(cost(start, end), 0) / size).squareRoot()))
      end = start
    }
    return groups.reversed()
  }
}
