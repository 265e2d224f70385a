import Instants
import MorseReceiving

/// What `receive --trace` draws, gathered from a reading's events as they come: compact
/// values (seconds from the first instant seen, as `Float`); `TraceSVG` draws it once the
/// reading is over.
///
/// What it keeps is bounded, whatever the length of the reading: at most `keptLevels` levels,
/// as many marks and gaps and characters, and `keptSightings` sightings; some 13 MB at
/// worst, 5 MB for an hour at 60 WPM (kept whole). The first thing refused sets the *cut*:
/// from that time on nothing more is kept, only counted (`dropped`), and the picture and a
/// note on standard error say so (`droppedSaid`). Why the first part, and not a picture
/// written as it goes: an SVG's height, its title (the length read), a short read's scale
/// (one row stretched to fit) and each row's speed band (the fastest followed) all need the
/// end; a picture of a day (1440 rows of a minute, some 100 MB) is no picture anyone opens;
/// and a level is 12 bytes, so the bound can be generous while a short picture stays what it
/// was, byte for byte. `TraceSVG` then writes the picture a row at a time.
struct ReceiveTrace {
  /// The levels kept at most (two an edge, one a frame; 12 bytes each), and the marks and
  /// gaps (16 bytes) and characters (24) too, though they come fewer than the levels they
  /// are read from: an hour at 60 WPM is some 200 000 levels, two hours and a half of frames
  /// at 30 a second 250 000.
  static let keptLevels = 250_000
  /// The sightings of the light kept at most (one moving more often than that is lost).
  static let keptSightings = 1_000

  /// What was not kept: counted from the cut on.
  struct Dropped: Hashable {
    /// Levels (two an edge, one a frame).
    var levels = 0
    /// Marks and gaps classed.
    var spans = 0
    /// Characters read.
    var characters = 0
    /// Sightings of the light (found, moved, lost).
    var sightings = 0
  }

  /// A level at a time: an edge (0 or 1, a line's or a file's) or a frame's light.
  struct Level: Hashable {
    /// Seconds from the start.
    let time: Float
    /// The level: 0 or 1 for an edge, the light's for a frame.
    let level: Float
    /// The level it is told on or off by (0.5 for edges).
    let threshold: Float
  }

  /// A mark or gap as classed.
  struct Span: Hashable {
    /// What it was read as.
    let kind: MorseReceiver.Classed.Kind
    /// Seconds from the start.
    let start: Float
    /// Seconds from the start.
    let end: Float
    /// The speed followed once it was classed.
    let wordsPerMinute: Float
  }

  /// A character read, and the time its marks took.
  struct Character: Hashable {
    /// As the receiver gave it (`A`, `<SK>`, `[......]`).
    let text: String
    /// The first mark's start, seconds from the start.
    let start: Float
    /// The last mark's end.
    let end: Float
  }

  /// What the light did: found, moved or lost, where and when.
  struct Sighting: Hashable {
    /// What happened.
    enum Kind: String, Hashable { case found, moved, lost }
    /// What happened.
    let kind: Kind
    /// Where.
    let region: LightRegion
    /// Seconds from the start.
    let time: Float
  }

  /// Whether it read frames (levels are a light's), else edges (levels are 0 or 1).
  private(set) var isFrames = false
  private(set) var levels: [Level] = []
  private(set) var spans: [Span] = []
  private(set) var characters: [Character] = []
  private(set) var sightings: [Sighting] = []
  /// Where the light was found, small: a frame with the light on, if one came (the last
  /// still the reading gave).
  private(set) var still: FrameStill?
  /// The time from which nothing was kept, in seconds from the start, if anything was not.
  private(set) var cut: Float?
  /// What was not kept, from the cut on.
  private(set) var dropped = Dropped()
  /// The latest time seen, in seconds from the start: of a level, a mark or gap's end, a
  /// sighting, kept or not.
  private(set) var end: Float = 0
  /// The latest level's time, kept or not (a frame read again is not drawn twice).
  private var latestLevel = -Float.infinity
  /// The time everything counts from: the first edge or frame.
  private var origin: MonotonicInstant?
  /// The marks of the character being read (its first start, its last end), if any.
  private var openCharacter: (start: Float, end: Float)?
  /// Characters whose marks are complete, waiting for their text: the receiver reads its
  /// first marks late, all at once, so texts can come after several characters' marks.
  private var awaitingText: [(start: Float, end: Float)] = []

  /// A trace of nothing yet.
  init() {}

  /// The end of what is drawn: the cut, if there is one, else the end.
  var drawnEnd: Float { min(cut ?? end, end) }

  /// Takes `event`, in the order the reading gave them.
  mutating func add(_ event: MorseReading.Event) {
    switch event {
    case .edge(let edge):
      // From frames, the light's level is drawn instead (the edges are the marks' ends).
      guard !isFrames else { return }
      let time = seconds(edge.time)
      if let last = levels.last {
        keep(Level(time: time, level: last.level, threshold: 0.5))
      }
      keep(Level(time: time, level: edge.isOn ? 1 : 0, threshold: 0.5))
    case .frame(let time, let light):
      isFrames = true
      let time = seconds(time)
      // Frames read again (a light moved, read from its last edge) are drawn as first read.
      if let light, time > latestLevel {
        keep(Level(time: time, level: Float(light.level), threshold: Float(light.threshold)))
      }
    case .classed(let classed): add(classed)
    case .output(.text(let text)): label(text)
    case .output(.lineBreak): awaitingText = []
    case .output(.space): break
    // Said on standard error as it comes, and at the end.
    case .doubt: break
    case .still(let still): self.still = still
    case .found(let region, let after): sight(.found, region, after)
    case .moved(let region, let after): sight(.moved, region, after)
    case .lost(let region, let after): sight(.lost, region, after)
    }
  }

  private mutating func add(_ classed: MorseReceiver.Classed) {
    let (start, end) = (seconds(classed.start), seconds(classed.end))
    self.end = max(self.end, end)
    if isKept(at: start, count: spans.count, limit: Self.keptLevels) {
      spans.append(
        Span(
          kind: classed.kind, start: start, end: end,
          wordsPerMinute: Float(classed.wordsPerMinute)))
    } else {
      dropped.spans += 1
    }
    switch classed.kind {
    case .dot, .dash: openCharacter = (openCharacter?.start ?? start, end)
    case .elementGap: break
    case .letterGap, .wordGap, .lineBreak: closeCharacter()
    }
  }

  /// The oldest character without a text gets `text` (one whose gap has not ended yet, when
  /// the receiver said it after a silence).
  private mutating func label(_ text: String) {
    if awaitingText.isEmpty { closeCharacter() }
    guard !awaitingText.isEmpty else { return }
    let marks = awaitingText.removeFirst()
    guard isKept(at: marks.start, count: characters.count, limit: Self.keptLevels) else {
      dropped.characters += 1
      return
    }
    characters.append(Character(text: text, start: marks.start, end: marks.end))
  }

  private mutating func closeCharacter() {
    // Each is given its text within a word or so; the limit only bounds a receiver that
    // would not.
    if let openCharacter, awaitingText.count < Self.keptLevels {
      awaitingText.append(openCharacter)
    }
    openCharacter = nil
  }

  private mutating func sight(_ kind: Sighting.Kind, _ region: LightRegion, _ after: Duration) {
    // A light's events count from the first frame, which is where the trace starts too.
    let time = Float(Self.seconds(after))
    end = max(end, time)
    guard isKept(at: time, count: sightings.count, limit: Self.keptSightings) else {
      dropped.sightings += 1
      return
    }
    sightings.append(Sighting(kind: kind, region: region, time: time))
  }

  /// Keeps `level`, unless it is past the bound or the cut (then counts it).
  private mutating func keep(_ level: Level) {
    (latestLevel, end) = (max(latestLevel, level.time), max(end, level.time))
    guard isKept(at: level.time, count: levels.count, limit: Self.keptLevels) else {
      dropped.levels += 1
      return
    }
    levels.append(level)
  }

  /// Whether a thing from `time` is kept among `count` of its kind, at most `limit`: not
  /// from the cut on; the first refused for the limit sets the cut at its time.
  private mutating func isKept(at time: Float, count: Int, limit: Int) -> Bool {
    guard count < limit else {
      cut = min(cut ?? time, time)
      return false
    }
    return time < cut ?? .infinity
  }

  /// `time` in seconds from the start (the first time given).
  private mutating func seconds(_ time: MonotonicInstant) -> Float {
    let origin = self.origin ?? time
    self.origin = origin
    return Float(Self.seconds(time - origin))
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (whole, fraction) = duration.components
    return Double(whole) + Double(fraction) / 1e18
  }
}
