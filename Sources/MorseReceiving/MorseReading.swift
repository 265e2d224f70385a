import Instants

/// One receive from beginning to end, whatever it reads: timed levels (a pin, a file of
/// edges) or frames (a video, a camera) in, text and what the light did out.
///
/// The glue between a source and the two receivers, kept apart from any I/O so that every
/// source goes through the same path: frames through a `LightReceiver` to edges, edges
/// through a `MorseReceiver` to text, and time that passes with nothing read completing
/// characters. What it gives is values; the tool words them.
public struct MorseReading: Sendable {
  /// What a source gives the reading.
  public enum Input: Sendable {
    /// A change of level, timed by its source.
    case edge(MorseEdge)
    /// A picture with its time: for a reading made with a light receiver.
    case frame(LightFrame)
    /// Nothing came until this time: silence that can end a character.
    case quiet(until: MonotonicInstant)
  }

  /// What the reading makes of its input, in order.
  public enum Event: Sendable, Hashable {
    /// An edge read (given before what it is decoded to): what `--edges-out` keeps.
    case edge(MorseEdge)
    /// Text decoded.
    case output(MorseReceiver.Output)
    /// The light was found there, this long after the first frame.
    case found(LightRegion, after: Duration)
    /// The light was found elsewhere, this long after the first frame.
    case moved(LightRegion, after: Duration)
    /// The light has not blinked there for a while, this long after the first frame.
    case lost(LightRegion, after: Duration)
    /// A reason to doubt the text, given once, when it is first known.
    case doubt(ReadDoubts.Doubt)
    /// When tracing: a mark or a gap as the receiver classed it (the first ones late, once
    /// the speed is known), given before what it decoded.
    case classed(MorseReceiver.Classed)
    /// When tracing: the first frame's time (no light), then the light's level in each
    /// frame read (those kept until it was found too, once it is, so not always in time
    /// order).
    case frame(at: MonotonicInstant, light: LightLevel?)
    /// When tracing: the frame the light was first found in, small (before `found`); then,
    /// should the light be off there, each brighter frame with the light on until its first
    /// mark seen ends (a still of a light off is a dark square). The last given is the one.
    case still(FrameStill)
  }

  /// A light's level in a frame and the level it is told on or off by, in the units of the
  /// picture's luma (with the whole picture searched, from an arbitrary origin).
  public struct LightLevel: Sendable, Hashable {
    /// The light's level.
    public let level: Double
    /// Half way from its dark level to its bright.
    public let threshold: Double
  }

  /// What the frames showed over the whole reading: for a closing word when nothing did.
  public enum Sighting: Sendable, Hashable {
    /// Not a reading of frames.
    case noFrames
    /// A reading of frames that got none.
    case noFrame
    /// Frames for this long, and no light found in them (`region`: where it was told to
    /// look, if anywhere).
    case notFound(watched: Duration, region: LightRegion?)
    /// A light was found.
    case found
  }

  private var receiver: MorseReceiver
  private var light: LightReceiver?
  /// The first frame's time: what the light's events count from (a camera's is the time
  /// since boot, meaningless to a person).
  private var firstFrame: MonotonicInstant?
  private var lastFrame: MonotonicInstant?
  private var isFound = false
  /// When tracing, once the light is found: the frame the still shows, the light's level in
  /// it if it was on there, and whether it is settled (a mark shown on it has ended).
  private var still: (time: MonotonicInstant, onLevel: Double?, isSettled: Bool)?
  /// What makes the text doubtful, as it is read.
  public private(set) var doubts: ReadDoubts
  /// Whether the events for a trace are given: `classed`, `frame` and `still`.
  public var isTracing = false

  /// A reading of edges into `receiver`.
  public init(receiver: MorseReceiver) {
    self.receiver = receiver
    doubts = ReadDoubts(speeds: receiver.settings.minimumWPM...receiver.settings.maximumWPM)
  }

  /// A reading of frames: `light` turns them into edges for `receiver`.
  public init(receiver: MorseReceiver, light: LightReceiver) {
    self.init(receiver: receiver)
    self.light = light
  }

  /// The light receiver's settings, for a reading of frames.
  public var lightSettings: LightReceiver.Settings? { light?.settings }

  /// Takes the next input (in time order) and hands `handle` what came of it, one event at
  /// a time: an edge is decoded only once `handle` has taken it, so a handler that throws
  /// (a file of edges that cannot be written) leaves the receiver as if the edge never came.
  /// A frame given to a reading of edges is ignored: there is nothing to find a light with.
  public mutating func read<Failure: Error>(
    _ input: Input, _ handle: (Event) throws(Failure) -> Void
  ) throws(Failure) {
    switch input {
    case .edge(let edge): try decode(edge, handle)
    case .quiet(let time): try hand({ $0.advance(to: time) }, handle)
    case .frame(let frame): try read(frame, handle)
    }
  }

  /// The last character, and the doubts only the end can tell: once the input has ended.
  public mutating func finish() -> [Event] {
    var events: [Event] = []
    hand({ $0.finish() }) { events.append($0) }
    events += doubts.finish().map { .doubt($0) }
    return events
  }

  /// The text held back, as it would read now (`MorseReceiver.heldText`).
  public var heldText: String { receiver.heldText }

  /// Characters read (unknown codes and prosigns included): none, and nothing was read.
  public var characters: Int { doubts.characters }

  /// What the frames showed so far.
  public var sighting: Sighting {
    guard let light else { return .noFrames }
    guard let firstFrame, let lastFrame else { return .noFrame }
    if isFound { return .found }
    return .notFound(watched: lastFrame - firstFrame, region: light.settings.region)
  }

  /// A frame through the light receiver, its edges decoded as they come, then the time of
  /// the frame passed (so a light that stays off ends its character).
  private mutating func read<Failure: Error>(
    _ frame: LightFrame, _ handle: (Event) throws(Failure) -> Void
  ) throws(Failure) {
    guard light != nil else { return }
    let origin = firstFrame ?? frame.time
    firstFrame = origin
    lastFrame = frame.time
    if isTracing { light?.keepsLevels = true }
    // In place: a copy taken out and put back would copy the light's grid every frame.
    let events = light?.receive(frame) ?? []
    for event in events {
      switch event {
      case .edge(let edge): try decode(edge, handle)
      case .found(let region, let time):
        if isTracing && !isFound {
          try handle(.still(FrameStill(frame)))
          still = (frame.time, nil, false)
        }
        isFound = true
        try handle(.found(region, after: time - origin))
      case .moved(let region, let time):
        try handle(.moved(region, after: time - origin))
      case .lost(let region, let time): try handle(.lost(region, after: time - origin))
      }
    }
    if isTracing {
      if origin == frame.time { try handle(.frame(at: origin, light: nil)) }
      for read in self.light?.takeLevels() ?? [] {
        try handle(
          .frame(at: read.time, light: LightLevel(level: read.level, threshold: read.threshold)))
        if read.time == frame.time {
          try retakeStill(frame, isOn: read.level > read.threshold, level: read.level, handle)
        }
      }
    }
    try hand({ $0.advance(to: frame.time) }, handle)
  }

  /// The still again from `frame` (the light's level in it `level`) if the light is on there
  /// and brighter than on the still, until the first mark the still shows has ended.
  private mutating func retakeStill<Failure: Error>(
    _ frame: LightFrame, isOn: Bool, level: Double, _ handle: (Event) throws(Failure) -> Void
  ) throws(Failure) {
    guard var still, !still.isSettled else { return }
    if still.time == frame.time {
      still.onLevel = isOn ? level : nil
    } else if isOn && level > still.onLevel ?? -.infinity {
      try handle(.still(FrameStill(frame)))
      (still.time, still.onLevel) = (frame.time, level)
    } else if !isOn && still.onLevel != nil {
      still.isSettled = true
    }
    self.still = still
  }

  /// `edge` to `handle`, then (if it took it) to the receiver, and what that decoded.
  private mutating func decode<Failure: Error>(
    _ edge: MorseEdge, _ handle: (Event) throws(Failure) -> Void
  ) throws(Failure) {
    try handle(.edge(edge))
    try hand({ $0.receive(edge) }, handle)
  }

  /// What `step` makes the receiver give, to `handle`: what it classed (when tracing), then
  /// each character followed by the doubt it raised, if any: read at the receiver's speed
  /// (before a line break started it anew).
  private mutating func hand<Failure: Error>(
    _ step: (inout MorseReceiver) -> [MorseReceiver.Output],
    _ handle: (Event) throws(Failure) -> Void
  ) throws(Failure) {
    let before = receiver.wordsPerMinute
    let outputs = step(&receiver)
    let speed = outputs.contains(.lineBreak) ? before : receiver.wordsPerMinute
    // Taken whether tracing or not, so that nothing piles up.
    let classed = receiver.takeClassed()
    doubts.unsureCharacters = receiver.unsureCharacters
    for mark in classed where mark.kind.isMark {
      doubts.mark(
        lasting: (mark.end - mark.start) / .seconds(1), wordsPerMinute: mark.wordsPerMinute)
    }
    if isTracing { for each in classed { try handle(.classed(each)) } }
    for output in outputs {
      try handle(.output(output))
      if case .text(let text) = output, let doubt = doubts.read(text, wordsPerMinute: speed) {
        try handle(.doubt(doubt))
      }
    }
  }
}
