import Glibc
import Instants
import MorseCore
import MorseCorpus
import MorseReceiving

/// A camera's view of a blinking light, made up frame by frame for the light receiver's
/// tests: a textured background with sensor noise, the light (a small disc, sharp or
/// blurred, lit for the part of each exposure it was on), and what makes finding it hard —
/// a steady lamp, a heartbeat LED, a slow exposure drift, a shaking camera, flickering room
/// light, dropped frames.
public struct SyntheticScene: Sendable {
  /// Frame size in pixels.
  public var width = 160
  public var height = 120
  public var framesPerSecond = 30.0
  /// The part of the frame interval each frame is exposed.
  public var exposure = 1.0
  /// The light's centre, radius (pixels) and brightness above the background (levels).
  public var lightX = 100.0
  public var lightY = 40.0
  public var lightRadius = 3.0
  public var lightBrightness = 180.0
  /// Whether the light's edge is blurred (over 3 pixels).
  public var isBlurred = false
  /// The sensor noise's standard deviation, in levels.
  public var noise = 3.0
  /// A steady bright lamp (a disc of radius 12 at 30,80) in view.
  public var hasLamp = false
  /// A heartbeat LED at 130,95: two 70 ms flashes a second.
  public var hasHeartbeat = false
  /// The exposure drifting by this share up and down over 20 s.
  public var drift = 0.0
  /// The camera shaking by this many pixels, slowly (a 3 s period, and 4.1 s across).
  public var shake = 0.0
  /// The light (and the lamp and heartbeat LED) carried across a dark picture, or the camera
  /// panning over it, this many pixels a second, across and down.
  public var pan = (x: 0.0, y: 0.0)
  /// The room's light flickering by this share up and down, 10 times a second (mains light
  /// beating with the frame rate): the background's brightness, not the light's.
  public var flicker = 0.0
  /// Frames never delivered (their numbers).
  public var droppedFrames: Set<Int> = []
  /// The light's glow over the whole room (or a light filling the picture): the background
  /// brightened by this share while the light is on.
  public var glow = 0.0
  /// The share of the picture, from its right, the glow lights (a wall beside the light; the
  /// rest, a doorway or a window, stays as it was).
  public var glowCover = 1.0
  /// The camera's automatic exposure: its gain falls by this share of how lit the picture was
  /// over the last fifth of a second or so (it hunts after the light).
  public var autoExposure = 0.0
  /// Another light in view (a disc of radius 3), keyed by its own edges (times from the same
  /// zero as the light's).
  public var otherLight: (x: Double, y: Double, brightness: Double, edges: [MorseEdge])?
  /// Black bars this many pixels wide at the left and right (a pillarboxed picture): exactly
  /// 0, no noise.
  public var border = 0
  /// Whether the light is lit while idle and dark for the marks (a lamp shuttered to send).
  public var isLitWhileIdle = false
  /// How slowly the light follows the key (seconds): its level moves toward lit or dark by
  /// the share of the way that a first-order lag of this time constant goes in a frame (an
  /// incandescent filament, a lamp seen through haze; 0: at once).
  public var lag = 0.0

  /// The default scene: 160x120 at 30 fps, a sharp light of radius 3, noise of 3 levels.
  public init() {}

  /// Every hard thing at once: a blurred, dimmer light, more noise, a 15 % exposure drift, a
  /// steady lamp and a heartbeat LED in view.
  public static var hard: SyntheticScene {
    var scene = SyntheticScene()
    scene.isBlurred = true
    scene.noise = 4
    scene.drift = 0.15
    scene.hasLamp = true
    scene.hasHeartbeat = true
    scene.lightBrightness = 150
    return scene
  }

  /// The frames of the light showing `edges` (key-down and key-up times from zero), from
  /// `lead` before the first edge to `tail` after the last.
  public func frames(
    showing edges: [MorseEdge], lead: Duration = .seconds(1), tail: Duration = .seconds(1)
  ) -> [LightFrame] {
    let other = otherLight.map { Self.onIntervals($0.edges, shift: lead) } ?? []
    let end = (edges.last?.time.sinceOrigin ?? .zero) + lead + tail
    let marks = Self.onIntervals(edges, shift: lead)
    let light = isLitWhileIdle ? Self.between(marks, until: end / .seconds(1)) : marks
    let interval = 1 / framesPerSecond
    let count = Int(((end / .seconds(1)) * framesPerSecond).rounded(.up))
    let background = self.background()
    // Sensor noise from a table, at an offset that changes each frame: cheap enough for the
    // tests run under qemu.
    var random = SplitMix64(state: 0x5EED)
    let noiseTable = (0..<65536).map { _ in noise * random.gaussian() }
    var frames: [LightFrame] = []
    var exposureLit = 0.0
    var lagging = 0.0
    for number in 0..<count where !droppedFrames.contains(number) {
      let start = Double(number) * interval
      let window = (start, start + interval * exposure)
      var lit = Self.overlap(light, window) / (interval * exposure)
      if lag > 0 {
        lagging += (lit - lagging) * (1 - exp(-interval / lag))
        lit = lagging
      }
      let beat = Self.overlap(heartbeat(around: start), window) / (interval * exposure)
      // The automatic exposure follows the light with a lag of a few frames.
      let gain = (1 + drift * sin(2 * Double.pi * start / 20)) * (1 - autoExposure * exposureLit)
      exposureLit += (lit - exposureLit) * min(interval / 0.2, 1)
      let (dx, dy) = (
        shake * sin(2 * .pi * start / 3) + pan.x * start,
        shake * sin(2 * .pi * start / 4.1) + pan.y * start
      )
      let room = 1 + flicker * sin(2 * Double.pi * 10 * (start + interval * exposure / 2))
      var values = room == 1 ? background : background.map { $0 * room }
      if glow > 0 && lit > 0 {
        let firstLit = Int(Double(width) * (1 - glowCover))
        for index in values.indices where index % width >= firstLit {
          values[index] *= 1 + glow * lit
        }
      }
      add(lightBrightness * lit, disc: (lightX + dx, lightY + dy, lightRadius), to: &values)
      if let otherLight {
        let lit = Self.overlap(other, window) / (interval * exposure)
        add(
          otherLight.brightness * lit, disc: (otherLight.x + dx, otherLight.y + dy, 3), to: &values)
      }
      if hasHeartbeat { add(200 * beat, disc: (130 + dx, 95 + dy, 2), to: &values) }
      if hasLamp { add(250, disc: (30 + dx, 80 + dy, 12), to: &values, replacing: true) }
      let offset = (number &* 7919) & 0xFFFF
      var luma = [UInt8](repeating: 0, count: width * height)
      for index in 0..<(width * height) {
        let value = values[index] * gain + noiseTable[(index &+ offset) & 0xFFFF]
        luma[index] = UInt8(min(max(value.rounded(), 0), 255))
      }
      for row in 0..<height where border > 0 {
        for column in Array(0..<border) + Array((width - border)..<width) {
          luma[row * width + column] = 0
        }
      }
      if let frame = LightFrame(
        width: width, height: height, luma: luma,
        time: .origin + .nanoseconds(Int64((start * 1e9).rounded())))
      {
        frames.append(frame)
      }
    }
    return frames
  }

  /// Adds `brightness` times the disc's cover of each pixel near it (or, `replacing`, sets
  /// the pixels it mostly covers to `brightness`).
  private func add(
    _ brightness: Double, disc: (x: Double, y: Double, radius: Double), to values: inout [Double],
    replacing: Bool = false
  ) {
    guard brightness > 0 else { return }
    let reach = disc.radius + 4
    let rows = max(Int(disc.y - reach), 0)...min(Int(disc.y + reach), height - 1)
    let columns = max(Int(disc.x - reach), 0)...min(Int(disc.x + reach), width - 1)
    guard !rows.isEmpty, !columns.isEmpty else { return }
    for y in rows {
      for x in columns {
        let cover = profile(x, y, disc.x, disc.y, disc.radius)
        if replacing {
          if cover > 0.5 { values[y * width + x] = brightness }
        } else {
          values[y * width + x] += brightness * cover
        }
      }
    }
  }

  /// A texture: a gradient with a fixed pattern of darker and lighter patches.
  private func background() -> [Double] {
    var random = SplitMix64(state: 0xBAC6)
    let patches = (0..<64).map { _ in Double(random.next() % 40) }
    return (0..<(width * height)).map { index in
      let (x, y) = (index % width, index / width)
      return 40 + Double(x) * 30 / Double(width) + patches[(x / 20 + 8 * (y / 15)) % 64]
    }
  }

  /// How much of the disc at `cx`,`cy` of `radius` covers pixel `x`,`y` (0 to 1).
  private func profile(_ x: Int, _ y: Int, _ cx: Double, _ cy: Double, _ radius: Double)
    -> Double
  {
    let (px, py) = (Double(x) - cx, Double(y) - cy)
    let distance = (px * px + py * py).squareRoot()
    let softness = isBlurred ? 3.0 : 0.5
    return min(max((radius + softness - distance) / (2 * softness), 0), 1)
  }

  /// The heartbeat LED's flashes in the second around `time`.
  private func heartbeat(around time: Double) -> [(Double, Double)] {
    guard hasHeartbeat else { return [] }
    let second = time.rounded(.down)
    var flashes: [(Double, Double)] = []
    for offset in [-1.0, 0, 1] {
      let base: Double = second + offset
      flashes.append((base + 0.1, base + 0.17))
      flashes.append((base + 0.35, base + 0.42))
    }
    return flashes
  }

  /// The times (seconds) the light is on, `shift` after the edges' own.
  static func onIntervals(_ edges: [MorseEdge], shift: Duration) -> [(Double, Double)] {
    var intervals: [(Double, Double)] = []
    var start: Double?
    for edge in edges {
      let time = (edge.time.sinceOrigin + shift) / .seconds(1)
      if edge.isOn {
        start = start ?? time
      } else if let from = start {
        intervals.append((from, time))
        start = nil
      }
    }
    return intervals
  }

  /// The times (seconds) from zero to `end` that `intervals` leave out.
  static func between(_ intervals: [(Double, Double)], until end: Double) -> [(Double, Double)] {
    var gaps: [(Double, Double)] = []
    var from = 0.0
    for (start, stop) in intervals {
      if start > from { gaps.append((from, start)) }
      from = stop
    }
    if end > from { gaps.append((from, end)) }
    return gaps
  }

  /// How long `intervals` cover of `window`.
  static func overlap(_ intervals: [(Double, Double)], _ window: (Double, Double)) -> Double {
    intervals.reduce(0) { total, interval in
      total + max(0, min(interval.1, window.1) - max(interval.0, window.0))
    }
  }
}
