import Instants

/// Turns a light's level, frame by frame, into edges timed inside the frames.
///
/// A frame integrates the light over its exposure, so a frame during which the light came
/// on is partly bright, in proportion to the part of the exposure it was on: the edge is
/// placed there (sub-frame timing) rather than at a frame's boundary. The level is scaled
/// between the light's dark and bright levels, which follow the exposure's drift: a frame
/// inside a gap (no edge in it or next to it) moves both half way to its level, one
/// inside a mark the bright level (for a slow light, only a frame within a quarter of the
/// contrast of that level: not one on its way up or down).
///
/// The light is on from the first frame over half lit, off from the first under half. The
/// edge lies in the partly lit frame at that change (over 20 % and under 80 %): the frame
/// before it if that one was partly lit and holds no edge yet, else this one; with neither,
/// it lies in the middle of the time no exposure saw between them (frames missing, or an
/// exposure shorter than the frame interval). With frames missing and the light as it was
/// on both sides, partly lit frames beside the gap (the one before by 15 %, both by 30 %)
/// show it changed and back; so does a partly lit frame after the gap followed by one that
/// is not. So a mark or a gap is timed to a fraction of
/// a frame when it lasts a frame or more, and one under half a frame is not seen. A light
/// that was on from before the first frame, taken for dark, shows when it goes off (two
/// frames far darker than dark before any edge): it was on from the first frame.
struct LightEdges {
  /// How long each frame is exposed.
  let exposure: Duration
  /// The time from one frame to the next.
  let frameInterval: Duration
  /// The level while off and while on.
  private(set) var dark: Double
  private(set) var bright: Double
  private(set) var isOn = false
  /// A frame: its time, how lit it was, and whether it holds an edge.
  private typealias Frame = (
    time: MonotonicInstant, lit: Double, holdsEdge: Bool, unseenSince: MonotonicInstant?,
    level: Double?
  )
  /// The frame before.
  private var previous: Frame?
  private var lastEdge: MonotonicInstant?
  /// The first frame's time.
  private var start: MonotonicInstant?

  /// How near its level (a share of the contrast) a frame must be for it to be taken as the
  /// light's steady level, drifting with the exposure: a slow light's frames on the way up
  /// or down (a filament takes a fifth of a second) are not.
  static let steadyBand = 0.25

  /// A detector for frames `frameInterval` apart exposed for `exposure`, its levels to be
  /// set (`calibrate`).
  init(frameInterval: Duration, exposure: Duration) {
    dark = 0
    bright = 1
    self.frameInterval = frameInterval
    self.exposure = exposure
  }

  /// Sets the dark and bright levels.
  mutating func calibrate(dark: Double, bright: Double, isSlow: Bool = false) {
    self.dark = dark
    self.bright = bright
    self.isSlow = isSlow
  }

  /// Whether the light is slow to rise and fall (`BlinkAnalysis.isSlow`): only frames near
  /// its level (`steadyBand`) are followed.
  private(set) var isSlow = false

  /// Scales the difference between the bright and the dark level (the light is weighed
  /// anew), keeping how lit `level` (the last frame's) is.
  mutating func scaleContrast(by factor: Double, at level: Double) {
    let contrast = bright - dark
    let lit = min(max((level - dark) / max(contrast, 1e-9), 0), 1)
    dark = level - lit * contrast * factor
    bright = dark + contrast * factor
  }

  /// Takes a frame's level (frames in time order); returns its edge, if any.
  mutating func add(time: MonotonicInstant, level: Double) -> [MorseEdge] {
    let start = self.start ?? time
    self.start = start
    let lit = (level - dark) / max(bright - dark, 1e-9)
    if lastEdge == nil, !isOn, lit < -0.5, let before = previous, before.lit < -0.5 {
      // Before any edge, two frames far darker than dark: the light was on from before the
      // first frame, and what was taken for its dark level was its light. It went off as
      // the first of them began.
      (dark, bright) = (level, dark)
      let edges = [edge(at: start, isOn: true), edge(at: before.time, isOn: false)]
      previous = (time, 0, false, nil, level)
      return edges
    }
    let before = previous.flatMap { frame in
      time - frame.time < frameInterval * 3 / 2 ? frame : nil
    }
    var holdsEdge = false
    var edges: [MorseEdge] = []
    if isOn != (lit >= 0.5) {
      let change = edgeAtChange(time: time, lit: lit, before: before)
      edges.append(change.edge)
      holdsEdge = change.holdsEdge
    } else if before == nil, let last = previous, !last.holdsEdge,
      (isOn ? 1 - last.lit : last.lit) >= 0.15, (isOn ? 2 - last.lit - lit : last.lit + lit) > 0.3
    {
      // Frames missing, the light as it was on both sides, but the frames beside them show
      // it changed and back while nobody looked: each edge in its frame if partly lit, else
      // in the middle of the time missing.
      let end = last.time + exposure
      let middle = end + (time - end) / 2
      let lastPart = isOn ? last.lit : 1 - last.lit
      let part = isOn ? lit : 1 - lit
      edges.append(
        edge(at: lastPart < 0.95 ? last.time + exposure * lastPart : middle, isOn: !isOn))
      edges.append(edge(at: part < 0.95 ? time + exposure * (1 - part) : middle, isOn: !isOn))
      holdsEdge = part < 0.95
    } else if let before, !before.holdsEdge, let unseen = before.unseenSince,
      isOn ? before.lit < 0.8 && lit >= 0.8 : before.lit > 0.2 && lit <= 0.2
    {
      // The frame after missing ones partly lit, this one not: the light changed while
      // nobody looked and back in that frame.
      edges.append(edge(at: unseen + (before.time - unseen) / 2, isOn: !isOn))
      edges.append(
        edge(at: before.time + exposure * (isOn ? 1 - before.lit : before.lit), isOn: !isOn))
    } else if let before, let inner = before.level, edges.isEmpty, !before.holdsEdge,
      !isSlow || (isOn ? before.lit > 1 - Self.steadyBand : before.lit < Self.steadyBand)
    {
      // The frame before lies inside a mark or a gap (no edge in it, nor a change after it;
      // for a slow light, near the level it is at, not on its way up or down): its level is
      // the light's, on or off, drifting with the exposure or a shaking camera (the bright
      // level moves with the dark: the background's drift is in both).
      follow(inner)
    }
    let unseenSince = previous.flatMap { before == nil ? $0.time + exposure : nil }
    // This frame's level, for the next frame to use if nothing changes there either.
    let steady = edges.isEmpty && !holdsEdge && lit > -0.5 && lit < 1.5
    previous = (time, lit, holdsEdge, unseenSince, steady ? level : nil)
    return edges
  }

  /// The edge where the light changed by the frame at `time`, `lit`: in the frame `before`
  /// if partly lit and holding no edge yet, else in this one if partly lit (which then holds
  /// it), else in the middle of the time no exposure saw.
  private mutating func edgeAtChange(time: MonotonicInstant, lit: Double, before: Frame?)
    -> (edge: MorseEdge, holdsEdge: Bool)
  {
    var holdsEdge = false
    let edgeTime: MonotonicInstant
    if let before, !before.holdsEdge, before.lit > 0.2, before.lit < 0.8 {
      edgeTime = before.time + exposure * (isOn ? before.lit : 1 - before.lit)
    } else if lit > 0.2, lit < 0.8 {
      edgeTime = time + exposure * (isOn ? lit : 1 - lit)
      holdsEdge = true
    } else {
      let end = previous.map { $0.time + exposure } ?? time
      edgeTime = end + (time - end) / 2
    }
    return (edge(at: edgeTime, isOn: !isOn), holdsEdge)
  }

  /// Moves the level the light has now (bright while on, dark while off) half way to
  /// `inner`, a frame's level inside a mark or a gap; the bright level with the dark.
  private mutating func follow(_ inner: Double) {
    if isOn {
      bright += 0.5 * (inner - bright)
    } else {
      let change = 0.5 * (inner - dark)
      dark += change
      bright += change
    }
  }

  /// An edge at `time`, or just after the last if that was later.
  private mutating func edge(at time: MonotonicInstant, isOn: Bool) -> MorseEdge {
    let time = max(time, (lastEdge ?? time - .microseconds(1)) + .microseconds(1))
    lastEdge = time
    self.isOn = isOn
    return MorseEdge(time: time, isOn: isOn)
  }
}
