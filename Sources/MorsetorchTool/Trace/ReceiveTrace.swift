import Instants
import MorseReceiving

/// What `receive --trace` draws, gathered from a reading's events as they come: compact
/// values (seconds from the first instant seen, as `Float`), so an hour of Morse or of frames
/// stays a few megabytes; `TraceSVG` draws it once the reading is over.
struct ReceiveTrace {
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
  /// The frame the light was first found in, small.
  private(set) var still: FrameStill?
  /// The time everything counts from: the first edge or frame.
  private var origin: MonotonicInstant?
  /// The marks of the character being read (its first start, its last end), if any.
  private var openCharacter: (start: Float, end: Float)?
  /// Characters whose marks are complete, waiting for their text: the receiver reads its
  /// first marks late, all at once, so texts can come after several characters' marks.
  private var awaitingText: [(start: Float, end: Float)] = []

  /// A trace of nothing yet.
  init() {}

  /// The latest time it holds, in seconds from the start.
  var end: Float {
    max(levels.last?.time ?? 0, spans.map(\.end).max() ?? 0, sightings.last?.time ?? 0)
  }

  /// Takes `event`, in the order the reading gave them.
  mutating func add(_ event: MorseReading.Event) {
    switch event {
    case .edge(let edge):
      // From frames, the light's level is drawn instead (the edges are the marks' ends).
      guard !isFrames else { return }
      let time = seconds(edge.time)
      if let last = levels.last {
        levels.append(Level(time: time, level: last.level, threshold: 0.5))
      }
      levels.append(Level(time: time, level: edge.isOn ? 1 : 0, threshold: 0.5))
    case .frame(let time, let light):
      isFrames = true
      let time = seconds(time)
      // Frames read again (a light moved, read from its last edge) are drawn as first read.
      if let light, time > levels.last?.time ?? -.infinity {
        levels.append(
          Level(time: time, level: Float(light.level), threshold: Float(light.threshold)))
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
    spans.append(
      Span(
        kind: classed.kind, start: start, end: end, wordsPerMinute: Float(classed.wordsPerMinute)))
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
    characters.append(Character(text: text, start: marks.start, end: marks.end))
  }

  private mutating func closeCharacter() {
    if let openCharacter { awaitingText.append(openCharacter) }
    openCharacter = nil
  }

  private mutating func sight(_ kind: Sighting.Kind, _ region: LightRegion, _ after: Duration) {
    // A light's events count from the first frame, which is where the trace starts too.
    sightings.append(Sighting(kind: kind, region: region, time: Float(Self.seconds(after))))
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
