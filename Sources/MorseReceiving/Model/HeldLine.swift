import Instants

/// The marks and gaps of a line not yet read out, and the reading of them: what turns the
/// receiver's timed marks and gaps into text by the sender's own timing (`TimingLearner`).
///
/// A file is read a line at a time, whole (a very long line a stretch at a time, each
/// learning also from the `context` read before it), so that the timing is learned from all
/// of it and each character is decided with what follows in view. A live source is read the
/// same way, but given as it comes (`isLive`): a line's first `firstLiveRead` marks are held
/// until the timing is learned from them, then each reading gives all but the last
/// `heldBack` marks, and a pause of twice the word gap gives what is held. A change of sender
/// that the receiver noticed (`senderChanged`) starts a stretch of its own: its timing is
/// learned apart.
struct HeldLine: Sendable {
  /// A mark and the gap after it, as timed.
  struct Element: Sendable, Hashable {
    var markStart: MonotonicInstant
    var markEnd: MonotonicInstant
    var gapEnd: MonotonicInstant?
    /// The dot of the speed the receiver followed as it classed the mark (seconds).
    var followedDot: Double

    /// Its lengths, in seconds.
    var lengths: LineDecoder.Element {
      LineDecoder.Element(
        mark: MorseReceiver.seconds(markEnd - markStart),
        gap: gapEnd.map { MorseReceiver.seconds($0 - markEnd) })
    }
  }

  /// What came of a reading: text, and how each mark and gap was finally classed.
  struct Read: Sendable {
    var outputs: [MorseReceiver.Output] = []
    var classed: [MorseReceiver.Classed] = []
    /// How many of the characters given the reading was unsure of (`isUnsure`).
    var unsure = 0
  }

  /// How much likelier than any other a character's reading must be (a log: twenty times)
  /// for the reading to be sure of it.
  static let sureMargin = LetterShares.naturalLog(20)

  /// Whether the reading was unsure of `character`: another reading of it was nearly as
  /// likely, or it has no meaning.
  static func isUnsure(_ character: LineDecoder.Character) -> Bool {
    character.text == nil || character.margin < sureMargin
  }

  /// The most elements of a file's line read at once: a longer line is read a stretch at a
  /// time, the last `overlap` elements kept for the next stretch.
  static let longestStretch = 2048
  /// The elements already read out that a stretch of a long line is read with: what its
  /// timing is learned from beyond what is held.
  static let context = 192
  static let overlap = 64

  /// The marks of a live line held until its timing is first learned (about ten
  /// characters), unless it ends or pauses first.
  static let firstLiveRead = 40
  /// The marks a live reading holds back (about four characters): the next marks may say
  /// how they are read.
  static let heldBack = 16
  /// How many new marks a live line takes before it is read again.
  static let liveStep = 8

  let learner: TimingLearner
  /// Whether the line is given as it comes (a live source), not when it ends.
  let isLive: Bool
  /// The elements of the line: `committed` of them read out already (kept as context).
  private var elements: [Element] = []
  private var committed = 0
  /// Where the present sender's elements begin: a reading learns from none before.
  private var stretchStart = 0
  /// Where the sender changed (the first mark at the new speed).
  private var changes: [MonotonicInstant] = []
  /// The timing of the last reading.
  private var timing: SenderTiming?
  /// Whether the last character read out was a prosign (nil: none yet in this line).
  private var wasProsign: Bool?
  /// Whether the last character read out was a run with no meaning cut short (a light that
  /// only blinks): the runs that go on from it are not said again.
  private var isRunCut = false

  init(learner: TimingLearner, isLive: Bool) {
    self.learner = learner
    self.isLive = isLive
  }

  /// Whether enough is held to read some of it before the line ends: more than is read at
  /// once; live, enough to learn the timing from (or, once learned, `liveStep` new marks).
  var isReady: Bool {
    let held = elements.count - committed
    guard isLive else { return held > Self.longestStretch }
    return held >= (timing == nil ? Self.firstLiveRead : Self.heldBack + Self.liveStep)
  }

  /// Whether a live line has paused at `time` with marks held: a silence of twice the word
  /// gap by the timing learned, or before one is, three times the longest gap held or the
  /// word gap at the speed followed (a word gap is seldom over three letter gaps; Farnsworth
  /// spacing stretches the first letter gap past two word gaps at the characters' speed):
  /// they are given then, not held to the line's end.
  func isPaused(at time: MonotonicInstant) -> Bool {
    guard isLive, !isEmpty, let last = elements.last, last.gapEnd == nil else { return false }
    let silence = MorseReceiver.seconds(time - last.markEnd)
    if let timing { return silence > 2 * timing.length(.wordGap) }
    let longest = elements[committed...].compactMap(\.lengths.gap).max() ?? 0
    return silence > 3 * max(longest, 7 * last.followedDot)
  }

  /// Whether nothing is held.
  var isEmpty: Bool { elements.count == committed }

  /// A mark, from `start` to `end`.
  /// A mark, from `start` to `end`, classed when the speed followed had a dot of
  /// `followedDot` seconds.
  mutating func mark(from start: MonotonicInstant, to end: MonotonicInstant, followedDot: Double) {
    elements.append(
      Element(markStart: start, markEnd: end, gapEnd: nil, followedDot: followedDot))
  }

  /// The gap after the last mark ended at `end`; classed at once if its mark was read out
  /// already (the line read to a pause): a letter or a word gap, as the last timing says.
  mutating func gap(to end: MonotonicInstant) -> MorseReceiver.Classed? {
    guard let last = elements.indices.last else { return nil }
    elements[last].gapEnd = end
    guard last < committed, let timing else { return nil }
    let length = MorseReceiver.seconds(end - elements[last].markEnd)
    return MorseReceiver.Classed(
      Self.isWordGap(length, timing: timing) ? .wordGap : .letterGap, from: elements[last].markEnd,
      to: end, wordsPerMinute: 1.2 / timing.length(.dot))
  }

  /// Whether a gap of `length` seconds between two characters is a word gap by `timing`.
  private static func isWordGap(_ length: Double, timing: SenderTiming) -> Bool {
    let logLength = LetterShares.naturalLog(max(length, 1e-4))
    return timing.score(logLength, as: .wordGap) + LineDecoder.logWordEnd
      > timing.score(logLength, as: .letterGap) + LineDecoder.logLetterEnd
  }

  /// Whether a gap of `length` seconds is between characters (not inside one) by `timing`.
  private static func isBetweenLetters(_ length: Double, timing: SenderTiming) -> Bool {
    let logLength = LetterShares.naturalLog(max(length, 1e-4))
    let inside = max(
      timing.score(logLength, as: .insideAfterDot), timing.score(logLength, as: .insideAfterDash))
    return timing.score(logLength, as: .letterGap) > inside
  }

  /// The sender changed at the mark that began at `time`.
  mutating func senderChanged(at time: MonotonicInstant) {
    changes.append(time)
  }

  /// Reads out what is held that is ready: all of it when the line has ended or paused
  /// (`isEnd`), else the stretches of a line too long to hold whole, up to where the sender
  /// changed, or (live) all but the last `heldBack` marks.
  mutating func read(isEnd: Bool) -> Read {
    var read = Read()
    while !isEmpty {
      let start = max(committed - Self.context, stretchStart)
      // A change of sender after the context begins: read only to it (then from it).
      let held = elements[committed...]
      let noticed = changes.compactMap { time in
        held.firstIndex { $0.markStart >= time }.map { (index: wordStart(before: $0), time: time) }
      }.filter { $0.index >= held.startIndex && $0.index - stretchStart >= Self.shortestStretch }
      // A stretch too short to learn a timing from is no new sender: the speed followed
      // wavering as it starts, a few odd marks.
      let found = noticed.filter { elements.count - $0.index >= Self.shortestStretch }
        .min { $0.index < $1.index }
      // A live line reads no further than a change too recent to tell yet: its first marks
      // are not read by the old sender's timing.
      let unsure =
        isLive && !isEnd
        ? noticed.filter { elements.count - $0.index < Self.shortestStretch }.map(\.index).min()
        : nil
      if let found, found.index == committed {
        // Read to where it changed already (a live line waited there to tell): from it.
        stretchStart = committed
        changes.removeAll { $0 <= found.time }
        continue
      }
      let change = found?.index
      let end = min(
        change ?? elements.count, unsure ?? elements.count, committed + Self.longestStretch)
      let isWhole = isEnd || change != nil || end < elements.count
      guard end > committed, isWhole || isReady else { return read }
      // The marks a long line's next stretch is to start from (a character cut by the
      // stretch's end is read again with what follows), or that a live line holds back.
      let keptMarks =
        change == end || unsure == end || (isEnd && end == elements.count)
        ? 0 : end < elements.count ? Self.overlap : Self.heldBack
      let window = elements[start..<end]
      let result = learner.read(
        Self.steadied(window), boundary: committed > start ? committed - start : nil)
      let fresh = result.reading.characters.filter { $0.marks.lowerBound >= committed - start }
      var taken = fresh
      if keptMarks > 0 {
        let before = taken.filter { $0.marks.upperBound <= window.count - keptMarks }
        // A live line waits for the character to end (a run with no meaning is cut at
        // `LineDecoder.longestRun`); a long file's stretch takes it.
        taken = before.isEmpty && keptMarks == Self.overlap ? Array(taken.prefix(1)) : before
      }
      guard let last = taken.last else { return read }
      say(taken, of: result, from: start, into: &read)
      committed = start + last.marks.upperBound
      if let found, committed >= found.index {
        stretchStart = found.index
        changes.removeAll { $0 <= found.time }
      }
      forgetOldest()
    }
    return read
  }

  /// Where the new sender's first word likely began, the change noticed at the mark of
  /// `index`: after the longest gap of the few before it (the receiver notices a change
  /// two marks late, and a mark of the new speed may pass for one of the old).
  private func wordStart(before index: Int) -> Int {
    let first = max(index - Self.lateMarks, committed, 1)
    guard first < index else { return index }
    var longest = (index: index, gap: 0.0)
    for start in first...index {
      guard let gap = elements[start - 1].lengths.gap, gap > longest.gap else { continue }
      longest = (start, gap)
    }
    return longest.index
  }

  /// The fewest marks a sender's stretch of a line has: its timing is learned from them.
  static let shortestStretch = 32

  /// The lengths of `window`, each scaled by how much faster or slower than its middle speed
  /// the sender was there (the speed the receiver followed, its median over a few marks
  /// either side): a sender who speeds up or slows down keeps one timing to learn.
  static func steadied(_ window: ArraySlice<Element>) -> [LineDecoder.Element] {
    let dots = window.map(\.followedDot)
    guard !dots.isEmpty, case let middle = dots.sorted()[dots.count / 2], middle > 0 else {
      return window.map(\.lengths)
    }
    return window.indices.enumerated().map { offset, index in
      let near = dots[
        max(offset - Self.steadying, 0)...min(offset + Self.steadying, dots.count - 1)]
      let local = near.sorted()[near.count / 2]
      return window[index].lengths.scaled(by: middle / local)
    }
  }

  /// The marks either side whose followed speed says the sender's speed at one.
  static let steadying = 6

  /// How many marks before a change the new sender may have begun.
  static let lateMarks = 6

  /// What is held, as it would read now (the timing last learned, or the ITU's at the speed
  /// followed): for a live view, which shows what is not given yet.
  var provisionalText: String {
    let held = elements[committed...]
    guard let last = held.last else { return "" }
    let timing = self.timing ?? TimingLearner.standard(dot: last.followedDot)
    return learner.decoder.decode(held.map(\.lengths), timing: timing).text
  }

  /// Forgets the line (it ended and was read).
  mutating func clear() {
    elements = []
    committed = 0
    stretchStart = 0
    changes = []
    wasProsign = nil
    isRunCut = false
    timing = nil
  }

  /// Forgets elements read out long ago: a line that never ends (a beacon) is kept no longer
  /// than the context and a stretch.
  private mutating func forgetOldest() {
    let forgotten = committed - Self.context
    guard forgotten > Self.longestStretch else { return }
    elements.removeFirst(forgotten)
    committed -= forgotten
    stretchStart = max(stretchStart - forgotten, 0)
  }

  /// Outputs and classes for `characters` of `result`, a reading of the elements from `start`.
  private mutating func say(
    _ characters: [LineDecoder.Character], of result: TimingLearner.Result,
    from start: Int, into read: inout Read
  ) {
    timing = result.timing
    let speed = 1.2 / result.timing.length(.dot)
    for character in characters {
      // A prosign stands as a word of its own (`73 <SK>`, `<SOS> <SOS>`), whatever the gap.
      let isProsign = character.text?.hasPrefix("<") == true
      // The first of a new sender's stretch: the gap before it was the old stretch's last.
      let gapBefore =
        character.marks.lowerBound == 0 && start > 0 ? elements[start - 1].lengths.gap : nil
      let isAfterWordGap =
        gapBefore.map { Self.isWordGap($0, timing: result.timing) } ?? character.isAfterWordGap
      // A run cut short goes on in a run with no gap between letters before it.
      let index = start + character.marks.lowerBound
      let goesOn =
        isRunCut && character.text == nil && index > 0
        && elements[index - 1].lengths.gap.map { !Self.isBetweenLetters($0, timing: result.timing) }
          == true
      isRunCut = character.text == nil && (character.isCut || goesOn)
      if !goesOn {
        if Self.isUnsure(character) { read.unsure += 1 }
        if isAfterWordGap || (wasProsign.map { $0 || isProsign } ?? false) {
          read.outputs.append(.space)
        }
        wasProsign = isProsign
        read.outputs.append(
          .text(character.text ?? "[\(character.code)\(character.isCut ? "…" : "")]"))
      }
      for index in character.marks {
        let element = elements[start + index]
        read.classed.append(
          MorseReceiver.Classed(
            result.reading.isDash[index] ? .dash : .dot, from: element.markStart,
            to: element.markEnd, wordsPerMinute: speed))
        guard let gapEnd = element.gapEnd, index < result.reading.gaps.count,
          index + 1 < result.reading.isDash.count
        else { continue }
        let kind: MorseReceiver.Classed.Kind
        switch result.reading.gaps[index] {
        case .inside: kind = .elementGap
        case .letter: kind = .letterGap
        case .word: kind = .wordGap
        }
        read.classed.append(
          MorseReceiver.Classed(kind, from: element.markEnd, to: gapEnd, wordsPerMinute: speed))
      }
    }
  }
}
