import Instants

/// Reads a light's on and off from frames: finds the spot that blinks Morse (or watches the
/// one it is told), follows it, and gives its edges, timed inside the frames, for a
/// `MorseReceiver`.
///
/// - Finding: every half second it looks at the last few seconds of a coarse grid of the
///   picture (`BlinkMap`) for the block that blinks most like Morse — sharp edges, marks of
///   two lengths (`BlinkAnalysis`) — so neither the brightest thing in view, a steady lamp,
///   nor a heartbeat or power LED blinking marks all alike is taken. Once found, the frames
///   it kept are replayed, so what was sent before is not lost.
/// - Following: a spot found again next to where it was is followed quietly (after 3 s
///   without an edge, read anew from its last edge if it blinks since); one found elsewhere
///   after 3 s without an edge is a move, read from the last edge; no edge for `lostAfter`
///   and no spot anywhere, it is lost, and it looks again.
/// - Timing: `LightEdges` (sub-frame timing from partly lit frames).
public struct LightReceiver: Sendable {
  /// What the receiver says.
  public enum Event: Sendable, Hashable {
    /// The light came on or went off.
    case edge(MorseEdge)
    /// The light was found there, after the frame at that time.
    case found(LightRegion, at: MonotonicInstant)
    /// The light was found elsewhere.
    case moved(LightRegion, at: MonotonicInstant)
    /// The light has not blinked there for a while; it is being looked for.
    case lost(LightRegion, at: MonotonicInstant)
  }

  /// Where to look and how the frames were taken.
  public struct Settings: Sendable, Hashable {
    /// Where the light is, if known: then it is not looked for.
    public var region: LightRegion?
    /// How long each frame is exposed (nil: the whole frame interval, as a video's frames).
    public var exposure: Duration?
    /// How much of the past is kept to find the light (a lamp at 1 WPM shows a dot and a dash
    /// in 16 s), and replayed once it is found; a light found is followed over the last 8 s.
    public var history: Duration = .seconds(16)
    /// How long the light may show no edge, with no other light blinking, before it is lost.
    public var lostAfter: Duration = .seconds(10)
    /// Whether a mark is when the light is darker (a lamp lit while idle, dimmed or shuttered
    /// to send): then the picture is read as its negative, and a spot lit while idle is the
    /// light, not one to pass over as blinking the message upside down.
    public var marksAreDark = false

    /// Looks for the light; frames exposed throughout; 16 s kept; lost after 10 s.
    public init() {}
  }

  /// What it was made with.
  public let settings: Settings
  /// The time from one frame to the next.
  public let frameInterval: Duration
  private var map: BlinkMap?
  /// With a region given: its levels in the frames kept while it is not yet seen blinking.
  private var regionLevels: [(time: MonotonicInstant, level: Double)] = []
  private var spot: Spot?
  /// The spot's level: its changes from frame to frame, weighted as the spot is now, added
  /// up (so weighting it anew does not move it).
  private var level = 0.0
  /// Whether the light was on after each of the last frames (a second and a half).
  private var states: [Bool] = []
  private var detector: LightEdges?
  /// Looks since the spot's centre last changed.
  private var stillLooks = 4
  private var isMoving: Bool { stillLooks < 4 }
  /// Looks since the light was last seen carried: its last mark lit most away from the
  /// spot's centre (see `lastMark`).
  private var carriedLooks = 4
  private var framesToSearch = 0
  private var searches = 0
  private var lastEdge: MonotonicInstant?
  /// When the light was last lost, if it was.
  private var lostAt: MonotonicInstant?
  /// Whether the level of each frame read is kept for `takeLevels()`: for a trace.
  public var keepsLevels = false
  /// The levels read since last taken, when they are kept.
  private var levelsRead: [LevelRead] = []
  /// A frame's time, the light's level in it, and the level it was told on or off by.
  public typealias LevelRead = (time: MonotonicInstant, level: Double, threshold: Double)

  /// A receiver of frames `frameInterval` apart, with `settings`.
  public init(settings: Settings = Settings(), frameInterval: Duration) {
    self.settings = settings
    self.frameInterval = max(frameInterval, .microseconds(100))
  }

  private var exposure: Duration { settings.exposure ?? frameInterval }
  private var historyFrames: Int { max(Int((settings.history / frameInterval).rounded()), 8) }
  /// The frames a light found is followed over: 8 s (less than `lostAfter`).
  private var followFrames: Int { max(Int((Duration.seconds(8) / frameInterval).rounded()), 8) }
  /// How far from each frame its level is taken over the lowest near it (a slow drift of the
  /// exposure taken out): 4 s, for a light is off at some time in any 8 s — a dash at 1 WPM
  /// lasts 3.6 s.
  private var driftReach: Int { searchFrames * 8 }
  private var searchFrames: Int { max(Int((0.5 / (frameInterval / .seconds(1))).rounded()), 1) }

  /// Takes the next frame (frames in time order, all of one size); returns what it showed.
  public mutating func receive(_ frame: LightFrame) -> [Event] {
    if let region = settings.region {
      guard region.fits(width: frame.width, height: frame.height) else { return [] }
      let mean = region.meanLuma(in: frame)
      return watch(region, level: settings.marksAreDark ? 255 - mean : mean, time: frame.time)
    }
    if map == nil {
      map = BlinkMap(
        width: frame.width, height: frame.height, capacity: historyFrames, reach: driftReach,
        isNegative: settings.marksAreDark)
    }
    // In place: a copy taken out and put back would copy the whole grid every frame.
    map?.add(frame)
    guard let map else { return [] }
    var events: [Event] = []
    if let spot, detector != nil {
      level += map.lastChange(of: spot)
      events += edges(time: frame.time, level: level)
    }
    framesToSearch -= 1
    guard framesToSearch <= 0 else { return events }
    framesToSearch = searchFrames
    // Following the light every half second; looking elsewhere for it every two seconds
    // once found (the whole picture's blocks cost most of the time).
    searches += 1
    if spot != nil, detector != nil, searches % 4 != 0, var detector {
      if let spot, let map = self.map { follow(spot, map: map, detector: &detector) }
      self.detector = detector
      return events
    }
    return events + search(map, at: frame.time)
  }

  /// With a region given: waits until it blinks, then reads it.
  private mutating func watch(_ region: LightRegion, level: Double, time: MonotonicInstant)
    -> [Event]
  {
    if detector != nil { return edges(time: time, level: level) }
    regionLevels.append((time, level))
    if regionLevels.count > historyFrames { regionLevels.removeFirst() }
    framesToSearch -= 1
    guard framesToSearch <= 0 else { return [] }
    framesToSearch = searchFrames
    let analysis = BlinkAnalysis(regionLevels.map(\.level), reach: driftReach)
    guard analysis.edges >= 2, analysis.contrast >= 4 else { return [] }
    detector = LightEdges(frameInterval: frameInterval, exposure: exposure)
    let kept = regionLevels
    regionLevels = []
    return [.found(region, at: time)] + replay(kept)
  }

  private mutating func edges(time: MonotonicInstant, level: Double) -> [Event] {
    guard var detector else { return [] }
    let edges = detector.add(time: time, level: level)
    self.detector = detector
    if keepsLevels { levelsRead.append((time, level, (detector.dark + detector.bright) / 2)) }
    states.append(detector.isOn)
    if states.count > searchFrames * 3 { states.removeFirst() }
    if let last = edges.last { lastEdge = last.time }
    return edges.map { .edge($0) }
  }

  /// The light's level in each frame read since this was last called (frames kept and read
  /// once it is found too), and the level it was told on or off by, half way from its dark
  /// level to its bright; oldest first. Empty unless `keepsLevels`.
  public mutating func takeLevels() -> [LevelRead] {
    defer { levelsRead = [] }
    return levelsRead
  }

  /// Reads frames kept, from the first frame's level: the light is off there (on, if it is
  /// over the middle of the levels kept), and its contrast the size of its edges, so a drift
  /// of the exposure over the seconds kept does not skew the first marks.
  private mutating func replay(_ frames: [(time: MonotonicInstant, level: Double)]) -> [Event] {
    var analysis = BlinkAnalysis(frames.map(\.level), reach: driftReach)
    // An exposure drifting by more than the light's contrast within those seconds hides its
    // edges from the lowest over 4 s (a faint light found in the mean of a wide spot): the
    // lowest over a second takes that drift out, so the detector is not told a contrast
    // that is the drift's and reads nothing.
    if analysis.edges < 2 {
      let near = BlinkAnalysis(frames.map(\.level), reach: searchFrames * 2)
      if near.edges >= 2 { analysis = near }
    }
    if let first = frames.first {
      let isOn = analysis.isOnAt.first ?? false
      let dark = isOn ? first.level - analysis.step : first.level
      detector?.calibrate(dark: dark, bright: dark + analysis.step, isSlow: analysis.isSlow)
    }
    return frames.flatMap { edges(time: $0.time, level: $0.level) }
  }

  /// Looks for the light in the frames kept: found, followed, moved or lost.
  private mutating func search(_ map: BlinkMap, at time: MonotonicInstant) -> [Event] {
    var map = map
    // Followed over the last 8 s. Looked for over the last 8 s, then, if it is not there,
    // over all the frames kept (a slow lamp's dot and dash): since it was lost, if it was
    // (what it sent before is read already).
    let sinceLost = lostAt.map { Int(((time - $0) / frameInterval).rounded()) + 1 } ?? .max
    map.window = min(followFrames, sinceLost)
    var sighting = map.find()
    guard let spot, var detector = self.detector else {
      if sighting.best == nil && sinceLost > followFrames && map.count > followFrames {
        map.window = sinceLost
        sighting = map.find()
      }
      guard let found = sighting.best, let pixels = map.pixels(of: found.spot),
        !isTooWeakAtFirst(found, beside: sighting.strongestUnproven, map: map)
      else { return [] }
      return take(found, pixels: pixels, map: map, after: nil, event: .found(pixels, at: time))
    }
    let quiet = time - (lastEdge ?? .origin) >= settings.lostAfter
    guard let found = sighting.best else {
      guard quiet, let pixels = map.pixels(of: spot) else { return [] }
      self.detector = nil
      self.spot = nil
      lostAt = time
      return [.lost(pixels, at: time)]
    }
    guard let pixels = map.pixels(of: found.spot) else { return [] }
    let isQuiet = time - (lastEdge ?? .origin) >= .seconds(3)
    if found.spot.overlaps(spot) {
      // No edge for a while, but the light blinks here: read it anew from the last edge —
      // only if it blinks since then, at half the contrast read before at least (a light
      // that stopped is no reason to read noise).
      if isQuiet, blinksSince(lastEdge, in: found.spot, map: map, at: time, detector: detector) {
        return Array(
          take(found, pixels: pixels, map: map, after: lastEdge, event: .moved(pixels, at: time))
            .dropFirst())
      }
    } else if isQuiet {
      // Blinking elsewhere while the spot has shown no edge for 3 s: the light was moved.
      return take(found, pixels: pixels, map: map, after: lastEdge, event: .moved(pixels, at: time))
    }
    follow(spot, map: map, detector: &detector)
    self.detector = detector
    return []
  }

  /// Whether `found`, the first spot to be found in the picture, is to wait: while the
  /// picture is new (its first 6 s), a spot seen only with the picture's changes taken out
  /// (`Spot.isSteadied`) four times weaker than the strongest blinking in the picture as it
  /// is that is not yet Morse-like (`unproven`). That light changes the whole picture (its
  /// glow, the exposure after it), and early in its message (dots so far, or a dash and no
  /// letter gap, or on before it began) it looks unlike Morse for a second or two; a weak
  /// spot left once its change is taken out (a wall it lights, a phone's edge shaken as its
  /// button is pressed) would be read instead of it. Found later, its first marks are read
  /// all the same (the frames kept are read from the first).
  private func isTooWeakAtFirst(_ found: BlinkMap.Candidate, beside unproven: Double, map: BlinkMap)
    -> Bool
  {
    guard lostAt == nil, found.spot.isSteadied, let first = map.frameTimes.first,
      let last = map.frameTimes.last
    else { return false }
    return last - first < .seconds(6) && 4 * found.score < unproven
  }

  /// Whether `spot`'s levels after `since` show two sharp edges or more, of at least half
  /// the contrast `detector` reads with.
  private func blinksSince(
    _ since: MonotonicInstant?, in spot: Spot, map: BlinkMap, at time: MonotonicInstant,
    detector: LightEdges
  ) -> Bool {
    let frames = Int(((time - (since ?? .origin)) / frameInterval).rounded())
    let levels = Array(map.levels(of: spot).suffix(frames))
    guard levels.count >= 4 else { return false }
    let recent = BlinkAnalysis(levels, reach: driftReach)
    return recent.edges >= 2 && recent.contrast >= abs(detector.bright - detector.dark) / 2
  }

  /// Weights the spot anew by how the blocks around it brightened with the light over the
  /// last second and a half, and scales the detector's contrast to match.
  private mutating func follow(_ spot: Spot, map: BlinkMap, detector: inout LightEdges) {
    guard states.contains(true), states.contains(false) else { return }
    let followed = map.spot(
      around: spot.centre, following: states, isMoving: isMoving, steadied: spot.isSteadied)
    // Carried (its last mark lit most away from the spot's centre, within the last two
    // seconds): the blocks up to two from there, where it is now — the last second and a
    // half's lag behind a light carried across the picture, or a shaking camera.
    let last = lastMark(near: spot, map: map, detector: detector)
    let moved = last.map { map.distance($0, spot.centre) } ?? 0
    carriedLooks = moved > 0 ? 0 : carriedLooks + 1
    if let last, carriedLooks < 4 {
      // The level is a mean of the spot's blocks: the light's part of it by their number (it
      // moves, so what its states show of either spot says little).
      let carried = map.neighbourhood(
        of: Spot(centre: last, weights: [], isSteadied: spot.isSteadied))
      stillLooks = carried.centre == spot.centre ? stillLooks + 1 : 0
      detector.scaleContrast(
        by: Double(spot.weights.count) / Double(carried.weights.count), at: level)
      self.spot = carried
      return
    }
    // Moving while its centre changed in the last two seconds.
    stillLooks = followed.centre == spot.centre ? stillLooks + 1 : 0

    let before = map.response(of: spot, following: states)
    let after = map.response(of: followed, following: states)
    // Only when the light's own states show its contrast as the detector has it (within a
    // factor of two): states misread, or too few, would skew it.
    let contrast = detector.bright - detector.dark
    guard !followed.weights.isEmpty, before > contrast / 2, before < contrast * 2, after > 0
    else { return }
    self.spot = followed
    detector.scaleContrast(by: after / before, at: level)
  }

  /// The block near `spot` its last whole mark (in `states`) brightened most, from the frame
  /// before it to its last: when that block holds an eighth of the light at least
  /// (`detector`'s contrast, over all the spot's blocks) and the spot's centre brightened by
  /// under a third as much, two thirds if two blocks away or more (the light left it; noise,
  /// a light between two blocks, or a mark misread, does not move it).
  private func lastMark(near spot: Spot, map: BlinkMap, detector: LightEdges) -> Int? {
    guard let end = states.lastIndex(of: true),
      let before = states[..<end].lastIndex(of: false),
      let lit = map.brightened(
        near: spot, since: states.count - 1 - before, until: states.count - 1 - end)
    else { return nil }
    let light = (detector.bright - detector.dark) * Double(spot.weights.count)
    let isFar = map.distance(lit.block, spot.centre) > 1
    guard
      lit.block == spot.centre
        || (lit.by >= light / 8 && lit.centre < lit.by * (isFar ? 2.0 / 3 : 1.0 / 3))
    else { return nil }
    return lit.block
  }

  /// Where the message read from `frames` (all those kept) begins: at the start of the last
  /// dark stretch as long as a line's end (`MorseReceiver.Settings.lineBreakAfter`) and
  /// twice as long as any after it, if there is one (a light left on long before is no part
  /// of the message; a slow lamp's word gaps, as long as each other, are). Else, a light on
  /// from the first frame, its start unseen, and lit half as long again as the longest mark
  /// after it (a hand's dashes vary by less; what is seen of it is no more than it was): no
  /// element (a light on when the recording began), the message begins after it.
  /// Else at the first frame.
  static func messageStart(_ frames: [(time: MonotonicInstant, level: Double)]) -> Int {
    let isOnAt = BlinkAnalysis(frames.map(\.level), reach: frames.count).isOnAt
    let silence = MorseReceiver.Settings().lineBreakAfter
    // Each dark stretch that follows a lit frame: where it begins, how long it lasts.
    var darks: [(start: Int, length: Duration)] = []
    for index in isOnAt.indices.dropFirst() where isOnAt[index - 1] && !isOnAt[index] {
      let end = isOnAt[index...].firstIndex(of: true) ?? frames.count - 1
      darks.append((index, frames[end].time - frames[index].time))
    }
    var longestAfter = Duration.zero
    for dark in darks.reversed() {
      if dark.length >= silence && dark.length >= longestAfter * 2 { return dark.start }
      longestAfter = max(longestAfter, dark.length)
    }
    guard isOnAt.first == true, let firstDark = isOnAt.firstIndex(of: false) else { return 0 }
    // Each lit stretch after the first: how long it lasts.
    var longestMark = Duration.zero
    for index in isOnAt.indices.dropFirst(firstDark) where !isOnAt[index - 1] && isOnAt[index] {
      let end = isOnAt[index...].firstIndex(of: false) ?? frames.count - 1
      longestMark = max(longestMark, frames[end].time - frames[index].time)
    }
    let leading = frames[firstDark].time - frames[0].time
    return longestMark > .zero && leading > longestMark * 3 / 2 ? firstDark : 0
  }

  /// Reads the spot `found` from the frames kept after `after`: all of them (a slow lamp is
  /// found only once it has shown a dot and a dash, seconds into its message) from where it
  /// began (`messageStart`), or since it was lost (what it sent before is read already).
  private mutating func take(
    _ found: BlinkMap.Candidate, pixels: LightRegion,
    map: BlinkMap, after: MonotonicInstant?, event: Event
  ) -> [Event] {
    spot = found.spot
    states = []
    var map = map
    if lostAt == nil { map.window = .max }
    var frames = zip(map.frameTimes, map.levels(of: found.spot))
      .filter { frame in after.map { frame.0 > $0 } ?? true }
      .map { (time: $0.0, level: $0.1) }
    if lostAt == nil, after == nil { frames.removeFirst(Self.messageStart(frames)) }
    detector = LightEdges(frameInterval: frameInterval, exposure: exposure)
    level = frames.last?.level ?? 0
    let events = [event] + replay(frames)
    // Followed at once from where the last second and a half show it: a light that moved
    // while it was looked for is no longer where most of the frames kept saw it.
    if var detector {
      follow(found.spot, map: map, detector: &detector)
      self.detector = detector
    }
    return events
  }
}
