import Instants
import MorseCore

// Over 400 lines: one state machine whose state stays private to it (its pure parts are in
// MorseReceiver+Lengths and +Classed, the held reading in Model/HeldLine).

/// Reads Morse from timestamped edges, live and adapting to the sender's speed: the decoder
/// of `morsetorch receive`, for any source of edges (a GPIO line, a file, a light sensor).
///
/// After the proven receivers: like unixcw's libcw it keeps a moving average of the dot
/// length and reads a mark over the dot/dash threshold as a dash; like fldigi, a mark far off
/// the average moves it faster. Speed stays within `minimumWPM...maximumWPM`: 1 to 60 WPM,
/// from a signal lamp's or a hand-flashed torch's dots of a second to a fast operator's.
///
/// - Bounce and noise: a pulse or gap shorter than the debounce time (5 ms, or a quarter
///   dot when that is less, until the speed is known; then `shortestElement`, 0.4 dot, at
///   most 20 ms) is removed before anything is decided, so a blip of light in a gap or a
///   dropout inside a mark is not read. A key-down too short so far is held with the key-up
///   that cut it: a key-down as soon after makes that key-up a dropout (bridged, even
///   inside a dot shorter than twice the debounce), silence makes the pair a blip
///   (dropped). One mark far off the estimate moves it little; two in a row, a lot.
/// - Dots and dashes: the threshold lies between the recent marks' own two lengths (their
///   geometric middle), so a signal lamp whose dash is only twice its dot and a heavy hand's
///   four times read right; until the marks show two lengths, at two dots. A dash says the
///   dot by that same ratio (three, by default).
/// - Gaps inside a character are under two element gaps: the gap between the elements of a
///   character, a moving average as the dot is, starting at what the first gaps show. A lamp
///   whose shutter is dark only briefly between elements is read as well as a key whose gaps
///   are a dot long.
/// - The gaps between characters are told from word gaps by their own statistics (the last
///   dozen of them, split in two groups — at a step of over a quarter (`dividingStep`) from
///   one to the next, else where they divide best — when the lower group has two gaps at
///   least and the upper group's median is `wordGroupApart` (1.35) times the lower's,
///   `lonelyWordApart` (1.45) for one gap alone: letter gaps are the lower group), not by
///   the dot, so Farnsworth spacing (characters fast, gaps stretched) soon reads right, and
///   a sender whose word gap is only 1.5 times the letter gap too: above the geometric
///   middle of the two groups a gap is a word gap. When the recent gaps are all alike, a
///   gap over `wordOverLetterGap` (1.6) times them is a word gap (a hand's letter gap is
///   rarely a quarter long, its word gap rarely a quarter short), and they are letter gaps
///   if near the expected letter gap (three dots, or as the Farnsworth hint says), else
///   word gaps (`R R R`). A new speed (two marks far off the estimate in a row) forgets the
///   marks and gaps kept.
/// - Start: the first marks are kept until they show the speed (a dot and a dash; six marks
///   of one length, dots if under twice the shortest gap between them, else dashes) and, from
///   a slow hand (a dot over 0.2 s, who may pause twice as long between letters), three gaps
///   between characters; or until a pause of twenty times the shortest mark (at least ten
///   dots at the fastest speed, at most twice `lineBreakAfter`). Then they are read, their
///   marks and gaps known from the start; after that the estimate follows the sender.
/// - Output: with `LookAhead.followed`, a character as soon as the gap after it is long
///   enough to say it is complete (two element gaps), a space before the next character when
///   a gap was a word gap; with `.heldBack` or `.wholeLine` (what `morsetorch receive` uses),
///   the text the sender's own timing reads (`HeldLine`), the speed followed here weighing
///   its lengths. Either way a line break after a long silence (`lineBreakAfter`, or twice
///   the word gap when that is longer); the speed is then found anew, for a new sender.
/// - An uneven hand (gaps after dashes twice those after dots): a word with a gap that fits
///   both is held to its end, cut where gaps and letters' frequencies say (`UnevenHand`).
/// - A code with no meaning is shown in brackets (`[......]`); prosigns as `<SK>`, each a word
///   of its own (spaced from the characters beside it, whatever the gap).
public struct MorseReceiver: Sendable {
  /// What the receiver says.
  public enum Output: Sendable, Hashable {
    /// A character, a prosign (`<AR>`) or an unknown code (`[......]`).
    case text(String)
    /// A word gap.
    case space
    /// A long silence.
    case lineBreak
  }

  /// How the receiver starts and what it allows.
  public struct Settings: Sendable, Hashable {
    /// The expected speed, in words per minute (PARIS).
    public var wordsPerMinute: Double = 15
    /// The overall speed of Farnsworth spacing, if the sender uses it.
    public var farnsworthWPM: Double?
    /// The slowest speed the estimate may move to.
    public var minimumWPM: Double = 1
    /// The fastest speed the estimate may move to.
    public var maximumWPM: Double = 60
    /// Pulses and gaps shorter than this (or a quarter dot) are bounce; once the speed is
    /// known, also those under 0.4 dot (at most `noiseLimit`).
    public var debounce: Duration = .milliseconds(5)
    /// A silence this long (or twice the word gap, if longer) ends the line and resets the
    /// speed to the hint.
    public var lineBreakAfter: Duration = .seconds(4)
    /// The letters' script.
    public var alphabet: NationalAlphabet = .latin
    /// How far ahead the text is read before it is given.
    public var lookAhead: LookAhead = .followed

    /// The defaults: 15 WPM expected, 1 to 60 allowed, 5 ms debounce, a line break after 4 s
    /// (or twice the word gap, when that is longer).
    public init() {}
  }

  /// How far ahead of what it gives the receiver reads.
  public enum LookAhead: Sendable, Hashable {
    /// A line at a time, whole (a long line a stretch at a time), by the sender's own timing
    /// learned from it (`HeldLine`): for a file.
    case wholeLine
    /// As a line comes, by the sender's own timing learned from it (`HeldLine`): the first
    /// marks of a line held until it is learned, then a few characters held back, and what
    /// is held given at a pause: for a live source.
    case heldBack
    /// Not at all: each character as soon as the gap after it completes it, by the speed
    /// followed.
    case followed
  }

  /// What it was made with.
  public let settings: Settings
  /// The line not yet read out, read by the sender's own timing (nil: read as followed).
  private var line: HeldLine?
  private var dot: Double
  private var level = false
  /// Edges not yet taken, until the debounce time has shown they are no noise: one, or a
  /// key-down and the key-up that followed it too soon (a blip, unless a key-down follows as
  /// soon again, which makes the key-up a dropout inside the mark).
  private var pending: [MorseEdge] = []
  private var lastOn: MonotonicInstant?
  /// Whether edges are read as they come (not the first ones, kept until the speed is known).
  private var isFollowing = true
  /// When the last mark began.
  private var lastMarkStart: MonotonicInstant?
  private var lastOff: MonotonicInstant?
  private var code = ""
  /// Whether the code went past `longestKept` elements (a light that only blinks; not kept).
  private var isCodeCut = false
  /// The elements of a code kept: far more than any character or prosign has.
  static let longestKept = 64
  private var isWordSpaceSaid = true
  private var isLineBreakSaid = true
  private var gaps: [Double] = []
  /// The last marks (seconds): their own two lengths tell dots from dashes.
  private var marks: [Double] = []
  /// The last gaps of every kind (seconds): the shortest of them are the element gap.
  private var allGapsKept: [Double] = []
  private var isSpacePending = false
  /// The elements keyed since the last character: to the word's end, when gaps are doubtful.
  private var hand = UnevenHand()
  /// Whether the last character since the line began was a prosign (nil: none yet).
  private var wasProsign: Bool?
  /// Whether the last mark was far off the estimate.
  private var wasFarOff = false
  /// Until the speed is known, edges wait here (see `lock`).
  private var startEdges: [MorseEdge] = []
  private var isLocked = false
  /// The marks and gaps read since they were last taken (`takeClassed`).
  var classed: [Classed] = []
  /// The marks and gaps classed by the speed followed, until the reading takes them.
  var followed: [Classed] = []

  /// A receiver with `settings`.
  public init(settings: Settings = Settings()) {
    self.settings = settings
    dot = 1.2 / settings.wordsPerMinute
    if settings.lookAhead != .followed {
      let hint = TimingLearner.Hint(dot: dot, farnsworthWPM: settings.farnsworthWPM)
      let learner = TimingLearner(
        decoder: LineDecoder(table: CodeTable.of(settings.alphabet)), hint: hint)
      line = HeldLine(learner: learner, isLive: settings.lookAhead == .heldBack)
    }
  }

  /// How many of the characters read out the reading by the sender's own timing was unsure
  /// of: another reading of them nearly as likely (under a twentieth as likely as the one
  /// given), or no meaning. None when read as followed (`LookAhead.followed`).
  public private(set) var unsureCharacters = 0

  /// The current estimate of the speed, in words per minute.
  public var wordsPerMinute: Double { 1.2 / dot }

  /// The text held back, as it would read now (it may still change): empty unless the
  /// reading looks ahead (`LookAhead`). Made when asked.
  public var heldText: String { line?.provisionalText ?? "" }

  /// Forgets the speed estimate and what was half received.
  public mutating func reset() {
    let (kept, unsure) = (classed, unsureCharacters)
    self = MorseReceiver(settings: settings)
    (classed, unsureCharacters) = (kept, unsure)
  }

  /// Forgets the speed estimate for a new line (a long silence ended the last), keeping what
  /// was classed for the line to be read.
  private mutating func startAnew() {
    let (kept, classedSoFar, held, unsure) = (classed, followed, line, unsureCharacters)
    self = MorseReceiver(settings: settings)
    (classed, followed, line, unsureCharacters) = (kept, classedSoFar, held, unsure)
  }

  /// Takes the next edge (edges come in time order); returns what became known.
  public mutating func receive(_ edge: MorseEdge) -> [Output] {
    read(follow(edge), isEnd: false)
  }

  /// Time passes with no edge up to `time`: completes what silence completes.
  public mutating func advance(to time: MonotonicInstant) -> [Output] {
    read(follow(to: time), isEnd: false, at: time)
  }

  /// The end of the input: the last character, and the line.
  public mutating func finish() -> [Output] {
    read(followToEnd(), isEnd: true)
  }

  /// What the marks and gaps classed so far make, read by the sender's own timing
  /// (`HeldLine`): the classes the receiver followed give way to the reading's, and its
  /// text to the reading's, line by line.
  private mutating func read(_ given: [Output], isEnd: Bool, at time: MonotonicInstant? = nil)
    -> [Output]
  {
    guard var line = self.line else {
      classed += followed
      followed = []
      if classed.count > Self.mostClassedKept {
        classed.removeFirst(classed.count - Self.mostClassedKept)
      }
      return given
    }
    // Taken out while it is read (so that its elements are not copied), and put back.
    self.line = nil
    var finished: [Classed] = []
    // Lines the receiver ended (a long silence): each read whole as it ends.
    var lines: [[Output]] = []
    defer {
      followed = []
      self.line = line
    }
    for record in followed {
      switch record.kind {
      case .dot, .dash:
        line.mark(from: record.start, to: record.end, followedDot: 1.2 / record.wordsPerMinute)
      case .elementGap, .letterGap, .wordGap:
        if let classed = line.gap(to: record.end) { finished.append(classed) }
      case .lineBreak:
        lines.append(Self.readLine(&line, into: &finished, unsure: &unsureCharacters))
        finished.append(record)
      }
    }
    var outputs: [Output] = []
    for output in given where output == .lineBreak {
      outputs +=
        lines.isEmpty ? Self.readLine(&line, into: &finished, unsure: &unsureCharacters) : lines.removeFirst()
      outputs.append(.lineBreak)
    }
    // Read at the end of the line or a pause, or what is ready of a line still coming.
    let isPaused = time.map { line.isPaused(at: $0) } ?? false
    if !given.contains(.lineBreak) && (isEnd || isPaused || line.isReady) {
      let read = line.read(isEnd: isEnd || isPaused)
      outputs += read.outputs
      finished += read.classed
      unsureCharacters += read.unsure
    }
    classed += finished
    if classed.count > Self.mostClassedKept {
      classed.removeFirst(classed.count - Self.mostClassedKept)
    }
    return outputs
  }

  /// The rest of `line`, read whole, its classes added to `finished`; the line forgotten.
  private static func readLine(
    _ line: inout HeldLine, into finished: inout [Classed], unsure: inout Int
  ) -> [Output] {
    let read = line.read(isEnd: true)
    finished += read.classed
    unsure += read.unsure
    line.clear()
    return read.outputs
  }

  /// Takes the next edge, with the speed it follows: what it classed, and text as it goes.
  private mutating func follow(_ edge: MorseEdge) -> [Output] {
    var output = follow(to: edge.time)
    if let last = pending.last, edge.isOn != last.isOn, edge.time - last.time < debounce {
      if last.isOn {
        // A key-down that lasted too short so far: a blip, or a mark with a dropout in it.
        pending.append(edge)
      } else {
        // A key-up followed too soon by a key-down: a dropout (or bounce) inside a mark.
        pending.removeLast()
      }
      return output
    }
    output += commitPending()
    guard edge.isOn != level else { return output }  // the same level again: nothing new
    pending = [edge]
    return output
  }

  /// Takes the pending edge, if there is one and it is not a blip; forgets a blip.
  private mutating func commitPending() -> [Output] {
    defer { pending = [] }
    guard pending.count == 1, let edge = pending.first else { return [] }
    return commit(edge)
  }

  /// Time passes with no edge up to `time`, with the speed it follows.
  private mutating func follow(to time: MonotonicInstant) -> [Output] {
    var output: [Output] = []
    if let last = pending.last, time - last.time >= debounce { output += commitPending() }
    // A long pause after the first marks (`startingPause`): they are all there is to go by.
    if !isLocked, !level, pending.isEmpty, let last = startEdges.last,
      time - last.time >= Self.startingPause(after: startEdges, settings: settings)
    {
      output += lock(dot: Self.startingDot(startEdges, isFinal: true) ?? nil)
    }
    guard isLocked, !level, pending.isEmpty, let lastOff else { return output }
    let silence = Self.seconds(time - lastOff)
    if hand.isHolding {
      if silence > wordThreshold { output += readHeld() }
    } else if !code.isEmpty && silence >= letterThreshold {
      if hand.isDoubtful(silence, letterGap: letterGap, floor: dot / 2) {
        hand.hold()
      } else {
        output += finishCharacter()
      }
    }
    if !isWordSpaceSaid && silence > wordThreshold {
      isWordSpaceSaid = true
      isSpacePending = true
    }
    if !isLineBreakSaid && time - lastOff >= lineBreakSilence {
      record(.lineBreak, from: lastOff, to: time)
      output.append(.lineBreak)
      startAnew()
    }
    return output
  }

  /// The end of the input, with the speed it follows.
  private mutating func followToEnd() -> [Output] {
    var output: [Output] = []
    output += commitPending()
    if !isLocked { output += lock(dot: Self.startingDot(startEdges, isFinal: true) ?? nil) }
    if hand.isHolding { output += readHeld() }
    if !code.isEmpty { output += finishCharacter() }
    if !isLineBreakSaid { output.append(.lineBreak) }
    isLineBreakSaid = true
    return output
  }

  /// What is too short to be a mark or a gap (`debounce(dot:isLocked:settings:)`).
  private var debounce: Duration { Self.debounce(dot: dot, isLocked: isLocked, settings: settings) }

  /// Before the speed is known, edges are kept; once it is, they are read with it.
  private mutating func commit(_ edge: MorseEdge) -> [Output] {
    guard !isLocked else { return read(edge) }
    level = edge.isOn
    startEdges.append(edge)
    guard let starting = Self.startingDot(startEdges) else { return [] }
    // A slow hand (a torch, a lamp: a dot over 0.2 s) pauses between letters up to twice the
    // usual: three gaps between characters to tell letters from words by, unless the edges
    // kept are many already.
    if let dot = starting, dot > 0.2, startEdges.count < Self.longestStart,
      Self.startingLetterGaps(startEdges) < 3
    {
      return []
    }
    return lock(dot: starting)
  }

  /// The speed is known (`dot`): reads the edges kept so far with it, knowing their marks
  /// and their gaps between characters from the start (the first dash of a lamp is not read
  /// by the dot alone, nor the first letter gap of a slow hand by the expected one).
  private mutating func lock(dot: Double?) -> [Output] {
    if let dot {
      let bounds = (1.2 / settings.maximumWPM)...(1.2 / settings.minimumWPM)
      self.dot = min(max(dot, bounds.lowerBound), bounds.upperBound)
    }
    isLocked = true
    let kept = startEdges
    startEdges = []
    let (startMarks, startGaps) = Self.lengths(kept)
    let allGaps = Array(startGaps.suffix(24))
    allGapsKept = allGaps
    let letterGaps = Array(startGaps.filter { $0 >= letterThreshold }.suffix(12))
    marks = Array(startMarks.suffix(16))
    gaps = letterGaps
    isFollowing = false
    let output = kept.flatMap { read($0) }
    isFollowing = true
    (marks, gaps, allGapsKept) = (Array(startMarks.suffix(16)), letterGaps, allGaps)
    return output
  }

  /// Under this a gap is inside a character: where the recent gaps step up from the
  /// element gaps to the longer ones (`elementGapsEnd(of:)`: two element gaps for a key, more
  /// for a signal lamp whose shutter is dark for a tenth of a dot inside a letter, a frame or
  /// four), at most two dots.
  private var letterThreshold: Double {
    min(Self.elementGapsEnd(of: allGapsKept) ?? 2 * dot, 2 * dot)
  }

  private mutating func read(_ edge: MorseEdge) -> [Output] {
    level = edge.isOn
    if edge.isOn {
      defer { lastOn = edge.time }
      guard let lastOff else { return [] }
      return gapEnded(from: lastOff, to: edge.time)
    }
    lastOff = edge.time
    if let lastOn { markEnded(from: lastOn, to: edge.time) }
    return []
  }

  /// A mark: a dot under the middle of the marks' two lengths (`markLengths`; without them,
  /// two dots), else a dash; the speed follows.
  private mutating func markEnded(from start: MonotonicInstant, to end: MonotonicInstant) {
    let mark = Self.seconds(end - start)
    let lengths = markLengths
    let isDot = mark < lengths.map { ($0.short * $0.long).squareRoot() } ?? 2 * dot
    if code.utf8.count < Self.longestKept {
      code.append(isDot ? "." : "-")
    } else {
      isCodeCut = true
    }
    hand.mark(isDash: !isDot)
    // A dash says the dot by the sender's own ratio, when the marks show it.
    let implied = isDot ? mark : mark * (lengths.map { $0.short / $0.long } ?? 1.0 / 3)
    // Far off the estimate twice in a row (a new speed): move most of the way at once; one odd
    // mark alone (noise) moves it little.
    let isFarOff = implied < dot / 2 || implied > dot * 2
    let weight = isFarOff ? (wasFarOff ? 0.7 : 0.1) : 0.25
    // The gaps kept were another speed's: they say nothing of this one's letters and words.
    let isNewSender = isFarOff && wasFarOff
    if isNewSender {
      // Not among the first marks, read again once the speed is known: they are the speed.
      if isFollowing, let lastMarkStart { line?.senderChanged(at: lastMarkStart) }
      gaps.removeAll()
      marks.removeAll()
      allGapsKept.removeAll()
      hand.forgetGaps()
    }
    lastMarkStart = start
    marks.append(mark)
    if marks.count > 16 { marks.removeFirst() }
    wasFarOff = isFarOff
    let bounds = (1.2 / settings.maximumWPM)...(1.2 / settings.minimumWPM)
    dot = min(max(dot + weight * (implied - dot), bounds.lowerBound), bounds.upperBound)
    record(isDot ? .dot : .dash, from: start, to: end)
    // A new sender: the gaps between elements scale with the marks until measured anew.
    isLineBreakSaid = false
  }

  /// The recent marks' two lengths if this speed's (`markLengths(_:dot:)`): over the middle, dash.
  private var markLengths: (short: Double, long: Double)? { Self.markLengths(marks, dot: dot) }

  /// A gap that ended with a mark: inside a character, or after one (a letter or word gap).
  private mutating func gapEnded(from start: MonotonicInstant, to end: MonotonicInstant)
    -> [Output]
  {
    let gap = Self.seconds(end - start)
    allGapsKept.append(gap)
    if allGapsKept.count > 24 { allGapsKept.removeFirst() }
    hand.gap(gap, under: wordThreshold)
    var output: [Output] = []
    // A gap as likely inside a character as between two: the word is held to its end.
    if hand.isHolding || (isLocked && hand.isDoubtful(letterGap: letterGap, floor: dot / 2)) {
      hand.hold()
      guard gap > wordThreshold || hand.elements.count >= UnevenHand.longestHeld else {
        record(gap >= letterThreshold ? .letterGap : .elementGap, from: start, to: end)
        return []
      }
      output += readHeld()
    }
    guard gap >= letterThreshold else {
      record(.elementGap, from: start, to: end)
      return output
    }
    defer { record(isSpacePending ? .wordGap : .letterGap, from: start, to: end) }
    if !code.isEmpty { output += finishCharacter() }
    if !isWordSpaceSaid && gap > wordThreshold { isSpacePending = true }
    gaps.append(gap)
    if gaps.count > 12 { gaps.removeFirst() }
    isWordSpaceSaid = false
    return output
  }

  /// The character just completed, after the word space before it, if any.
  private mutating func finishCharacter() -> [Output] {
    defer {
      code = ""
      isCodeCut = false
      hand.clear()
    }
    isWordSpaceSaid = false
    let text =
      isCodeCut
      ? nil : MorseCode(code).flatMap { MorseAlphabet.text(for: $0, alphabet: settings.alphabet) }
    let shown = text ?? MorseCode.shownUnknown(code + (isCodeCut ? "…" : ""))
    // A prosign stands as a word of its own (`73 <SK>`, `<SOS> <SOS>`), whatever the gap.
    let isProsign = text?.hasPrefix("<") == true
    let isSpaced = isSpacePending || (wasProsign.map { $0 || isProsign } ?? false)
    isSpacePending = false
    wasProsign = isProsign
    return (isSpaced ? [.space] : []) + [.text(shown)]
  }

  /// The word held, read as its gaps and the characters' frequencies say most likely.
  private mutating func readHeld() -> [Output] {
    let codes = hand.resolve(
      letterGap: letterGap, letterThreshold: letterThreshold, floor: dot / 2,
      alphabet: settings.alphabet)
    return codes.flatMap { held in
      code = held
      return finishCharacter()
    }
  }

  /// A gap over this many letter gaps is a word gap when the recent gaps are all alike:
  /// between 3 and 7 units, so that a hand's jitter of a quarter on each gap leaves letters
  /// and words apart.
  static let wordOverLetterGap = 1.6

  /// Above this, a gap between characters is a word gap: the geometric middle of the letter
  /// and word gaps when the recent gaps show both (a sender whose word gap is only 1.5 times
  /// the letter gap is read right), else `wordOverLetterGap` times the letter gap.
  private var wordThreshold: Double {
    let (letter, word) = gapGroups
    guard let word else { return letter * Self.wordOverLetterGap }
    return (letter * word).squareRoot()
  }

  /// The letter gap (see `gapGroups`).
  private var letterGap: Double { gapGroups.letter }

  /// The letter gap, and the word gap when the recent gaps show one (`gapGroups(of:expected:)`;
  /// expected, three dots at the spacing speed).
  private var gapGroups: (letter: Double, word: Double?) {
    let unit = settings.farnsworthWPM.map {
      Self.farnsworthUnit(characterWPM: 1.2 / dot, overallWPM: $0)
    }
    return Self.gapGroups(of: gaps, expected: 3 * (unit ?? dot))
  }

  /// The silence that ends a line: the setting, or twice the word gap when that is longer
  /// (slow Farnsworth spacing stretches word gaps past a few seconds).
  private var lineBreakSilence: Duration {
    max(settings.lineBreakAfter, .seconds(2 * letterGap * 7 / 3))
  }
}
