import Instants

// The lengths the receiver goes by, from the edges and marks it has seen: pure functions of
// them, apart from the receiver's state.
extension MorseReceiver {
  /// The lengths (seconds) of the marks and of the gaps between `edges`.
  static func lengths(_ edges: [MorseEdge]) -> (marks: [Double], gaps: [Double]) {
    var (marks, gaps): ([Double], [Double]) = ([], [])
    for (previous, edge) in zip(edges, edges.dropFirst()) where previous.isOn != edge.isOn {
      let length = seconds(edge.time - previous.time)
      if previous.isOn { marks.append(length) } else { gaps.append(length) }
    }
    return (marks, gaps)
  }

  /// The dot length the first marks show, once they show it (nil: not yet; `.some(nil)`:
  /// keep the hint). Marks of two lengths (the longer at least twice the shorter) give the
  /// shorter's median. Marks of one length (six of them, or fewer when `isFinal`) are told by
  /// the shortest gap between them: a gap inside a character is one dot, so marks under twice
  /// that gap are dots, longer ones dashes (three dots). With no gap, the hint decides.
  static func startingDot(_ edges: [MorseEdge], isFinal: Bool = false) -> Double?? {
    var marks: [Double] = []
    var gaps: [Double] = []
    var previous: MorseEdge?
    for edge in edges {
      if let previous, previous.isOn != edge.isOn {
        let (whole, fraction) = (edge.time - previous.time).components
        let length = Double(whole) + Double(fraction) / 1e18
        if edge.isOn { gaps.append(length) } else { marks.append(length) }
      }
      previous = edge
    }
    // A blip far under the others (a flash of light, a bounce the debounce let through) says
    // nothing of the speed.
    let all = marks.sorted()
    let sorted = all.isEmpty ? all : all.filter { $0 >= all[all.count / 2] / 4 }
    guard let shortest = sorted.first else { return isFinal ? .some(nil) : nil }
    if let split = sorted.firstIndex(where: { $0 >= 2 * shortest }) {
      return .some(sorted[split / 2])
    }
    if let (short, _) = twoLengths(sorted) { return .some(short) }
    guard marks.count >= 6 || isFinal else { return nil }
    guard let shortestGap = gaps.min() else { return .some(nil) }
    let mark = sorted[sorted.count / 2]
    return .some(mark < 2 * shortestGap ? mark : mark / 3)
  }

  /// Where `gaps` step up from the gaps between elements to the longer ones: at their widest
  /// step (1.8 times at least) from one gap to the next in size with three gaps at least and
  /// a fifth of them below it (a lone glitch is no group), twice the element gaps' median or
  /// the step's geometric middle if that is more, and under the longer gaps. Not the first
  /// such step: gaps a frame or two long (42 or 83 ms at 24 fps) are both element gaps. Nil
  /// when the gaps show no such step (too few, or all alike).
  static func elementGapsEnd(of gaps: [Double]) -> Double? {
    let sorted = gaps.sorted()
    guard sorted.count >= 4 else { return nil }
    var widest: (index: Int, ratio: Double)?
    for index in 3..<sorted.count where index * 5 >= sorted.count {
      let ratio = sorted[index] / sorted[index - 1]
      if ratio >= 1.8 && ratio > widest?.ratio ?? 0 { widest = (index, ratio) }
    }
    guard let index = widest?.index else { return nil }
    let (top, next) = (sorted[index - 1], sorted[index])
    return min(max(2 * sorted[index / 2], (top * next).squareRoot()), 0.9 * next)
  }

  /// The most edges kept before the speed is known.
  static let longestStart = 64

  /// How many of the gaps between `edges` are between characters: over the element gaps they
  /// show.
  static func startingLetterGaps(_ edges: [MorseEdge]) -> Int {
    let gaps = lengths(edges).gaps
    guard let end = elementGapsEnd(of: gaps) else { return 0 }
    return gaps.filter { $0 >= end }.count
  }

  /// The medians of the two groups `values` divide into at their widest step (a ratio of over
  /// 1.3 from one to the next in size), when the upper is 1.6 to 5 times the lower: a dot and a
  /// dash, however a sender weighs them. Nil for fewer than four values, or one group (or one
  /// of them a single value).
  static func twoLengths(_ values: [Double]) -> (short: Double, long: Double)? {
    guard values.count >= 4 else { return nil }
    let sorted = values.sorted()
    var step: (index: Int, ratio: Double)?
    for index in 1..<sorted.count where sorted[index] / sorted[index - 1] > step?.ratio ?? 1.3 {
      step = (index, sorted[index] / sorted[index - 1])
    }
    // Two of each at least: one mark stretched by a late key-up is no group.
    guard let step, step.index >= 2, sorted.count - step.index >= 2 else { return nil }
    let short = sorted[step.index / 2]
    let long = sorted[step.index + (sorted.count - step.index) / 2]
    guard long >= 1.6 * short, long <= 5 * short else { return nil }
    return (short, long)
  }

  /// The shortest mark or gap, in dots, once the speed is known: a real element, even
  /// hand-keyed, is near a dot at the least.
  static let shortestElement = 0.4

  /// What is too short to be a mark or a gap. Until the speed is known (`isLocked`), only
  /// what is bounce at any speed (`settings.debounce`, or a quarter `dot` when that is less);
  /// then anything under `shortestElement` dot as well — a blip of light in a gap, a dropout inside a mark
  /// — since a real element, even hand-keyed, is near a dot at the least; but never over
  /// `noiseLimit`, so that a new sender much faster than the last is still heard and followed.
  static func debounce(dot: Double, isLocked: Bool, settings: Settings) -> Duration {
    let bounce = min(settings.debounce, .seconds(dot / 4))
    guard isLocked else { return bounce }
    return max(bounce, min(.seconds(dot * shortestElement), noiseLimit))
  }

  /// The longest blip or dropout taken for noise once the speed is known.
  static let noiseLimit = Duration.milliseconds(20)

  /// The two lengths of `marks` (`twoLengths`), if they are the speed of `dot`'s: their
  /// middle within 1.2 to 2.8 dots (marks kept from before a change of speed are not). A
  /// mark over their geometric middle is a dash: a signal lamp's dash only twice its dot, a
  /// heavy hand's four times, are read right.
  static func markLengths(_ marks: [Double], dot: Double) -> (short: Double, long: Double)? {
    guard let (short, long) = twoLengths(marks),
      (1.2 * dot...2.8 * dot).contains((short * long).squareRoot())
    else { return nil }
    return (short, long)
  }

  /// The letter gap, and the word gap when they show one, of the recent `gaps` between
  /// characters: split in two groups where they divide best (`split`), the lower group's
  /// median the letter gap and the upper's the word gap (unless it is over four letter gaps,
  /// which no sender spaces words by). When they are all alike, they are letter gaps if under
  /// 1.53 times (the geometric middle of 3 and 7 units) the `expected` letter gap, else word
  /// gaps (single-letter words, `R R R`), and the expected letter gap stands.
  static func gapGroups(of gaps: [Double], expected: Double) -> (letter: Double, word: Double?) {
    guard !gaps.isEmpty else { return (expected, nil) }
    let sorted = gaps.sorted()
    let split = split(sorted)
    let letters = sorted[..<split]
    let middle = letters[letters.count / 2]
    guard split == sorted.count else {
      let words = sorted[split...]
      let word = words[words.startIndex + words.count / 2]
      // Over four letter gaps (7/3 is the standard, 10/2.5 a sender's extreme) the upper gaps
      // are an earlier, slower sender's, not this one's words.
      return (middle, word <= 4 * middle ? word : nil)
    }
    return (middle < expected * (7.0 / 3).squareRoot() ? middle : expected, nil)
  }

  /// How far apart the medians of letter gaps and word gaps are at least (`wordGroupApart`;
  /// `lonelyWordApart` when the upper group is one gap): more than jitter of a quarter on
  /// every gap makes of one group, less than any sender's words are spaced by.
  static let wordGroupApart = 1.35
  static let lonelyWordApart = 1.45
  /// A step from one gap to the next (in size) that divides them at once: over a quarter.
  static let dividingStep = 1.25

  /// Where `sorted` gaps divide into letter gaps and word gaps: at the widest step of over
  /// `dividingStep` from one gap to the next; without one (or if that division is not
  /// taken), the division with the most variance between the two groups (Otsu's). Taken if
  /// the lower group has two gaps at least and the upper group's median is at least
  /// `wordGroupApart` times the lower's (`lonelyWordApart` when it is one gap); else
  /// `sorted.count` (one group).
  static func split(_ sorted: [Double]) -> Int {
    // Two letter gaps at least: one alone is as likely one keyed short. One word gap alone
    // must stand further apart than a group of them.
    guard sorted.count >= 3 else { return sorted.count }
    let candidates = 2...(sorted.count - 1)
    func isApart(_ index: Int) -> Bool {
      let lowerMedian = sorted[index / 2]
      let upperMedian = sorted[index + (sorted.count - index) / 2]
      let apart = index == sorted.count - 1 ? lonelyWordApart : wordGroupApart
      return upperMedian >= apart * lowerMedian
    }
    // A step of a quarter between two gaps next in size divides them at once (the widest).
    var step: (index: Int, ratio: Double)?
    for index in candidates where sorted[index] / sorted[index - 1] > dividingStep {
      if sorted[index] / sorted[index - 1] > step?.ratio ?? 0 {
        step = (index, sorted[index] / sorted[index - 1])
      }
    }
    if let step, isApart(step.index) { return step.index }
    let total = sorted.reduce(0, +)
    var below = sorted[..<candidates.lowerBound].dropLast().reduce(0, +)
    var best: (index: Int, variance: Double)?
    for index in candidates {
      below += sorted[index - 1]
      let (lower, upper) = (Double(index), Double(sorted.count - index))
      let difference = (total - below) / upper - below / lower
      let variance = lower * upper * difference * difference
      if variance > best?.variance ?? 0 { best = (index, variance) }
    }
    guard let index = best?.index, isApart(index) else { return sorted.count }
    return index
  }

  /// The spacing unit of Farnsworth timing (Bloom): the 19 spacing units of PARIS take
  /// (60·C − 37.2·S)/(S·C) seconds.
  static func farnsworthUnit(characterWPM: Double, overallWPM: Double) -> Double {
    guard overallWPM < characterWPM else { return 1.2 / characterWPM }
    return (60 * characterWPM - 37.2 * overallWPM) / (overallWPM * characterWPM) / 19
  }

  /// The silence after the first marks (`edges`, kept until the speed is known) that says
  /// they are all there is to go by: twenty of the shortest (a pause longer than any word gap
  /// of theirs), at least ten dots at the fastest speed and at most twice `lineBreakAfter` (a
  /// light left on for seconds before a message, then dark, is read as a line of its own).
  static func startingPause(after edges: [MorseEdge], settings: Settings) -> Duration {
    var shortest = Double.infinity
    for (previous, edge) in zip(edges, edges.dropFirst()) where previous.isOn {
      shortest = min(shortest, seconds(edge.time - previous.time))
    }
    let longest = seconds(settings.lineBreakAfter) * 2
    return .seconds(min(max(20 * shortest, 12 / settings.maximumWPM), longest))
  }

  /// `duration` in seconds.
  static func seconds(_ duration: Duration) -> Double {
    let (whole, fraction) = duration.components
    return Double(whole) + Double(fraction) / 1e18
  }
}
