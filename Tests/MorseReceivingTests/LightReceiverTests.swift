import Instants
import MorseCore
import MorseTestSupport
import Testing

@testable import MorseReceiving

/// What the light receiver and a `MorseReceiver` read from `frames`, and the light
/// receiver's other events.
func read(_ frames: [LightFrame], settings: LightReceiver.Settings = .init(), fps: Double = 30)
  -> (text: String, events: [LightReceiver.Event])
{
  var light = LightReceiver(settings: settings, frameInterval: .seconds(1 / fps))
  var receiver = MorseReceiver()
  var events: [LightReceiver.Event] = []
  var outputs: [MorseReceiver.Output] = []
  for frame in frames { events += light.receive(frame) }
  for case .edge(let edge) in events { outputs += receiver.receive(edge) }
  outputs += receiver.finish()
  let text = outputs.map { output in
    switch output {
    case .text(let text): text
    case .space: " "
    case .lineBreak: "\n"
    }
  }.joined()
  return (
    String(text.drop { $0 == "\n" }.reversed().drop { $0 == "\n" }.reversed()),
    events.filter {
      if case .edge = $0 { return false } else { return true }
    }
  )
}

/// The edges of `text` sent perfectly at `wpm`.
func edges(_ text: String, wpm: Int = 15) throws -> [MorseEdge] {
  MorseEdge.edges(
    of: MorseSteps(try MorseMessage(text), timing: try MorseTiming(wordsPerMinute: wpm)))
}

@Suite struct LightReceiverTests {
  @Test(arguments: [5, 10, 15, 20])
  func aSmallBlinkingLightReadsBackExactly(wpm: Int) throws {
    let frames = SyntheticScene().frames(showing: try edges("PARIS CQ", wpm: wpm))
    let (text, events) = read(frames)
    #expect(text == "PARIS CQ")
    #expect(events.count == 1)
  }
}

extension LightReceiverTests {
  @Test(arguments: [5, 10, 15, 20])
  func aBlurredLightBesideALampAndAHeartbeatWithExposureDriftReadsBackExactly(wpm: Int) throws {
    let frames = SyntheticScene.hard.frames(showing: try edges("SOS DE PA3", wpm: wpm))
    let (text, events) = read(frames)
    #expect(text == "SOS DE PA3")
    #expect(events.count == 1)
    if case .found(let region, _) = events.first {
      #expect(region.overlaps(LightRegion(x: 97, y: 37, width: 6, height: 6)!))
    }
  }

  /// A message of a few seconds ("SOS" alone) in the hard scene: its light is found in the
  /// mean of a wide spot (320x240, as `morsetorch-synthetic-video` makes it), weaker there
  /// than the exposure's drift over those seconds, and read from its first mark all the
  /// same.
  @Test(arguments: ["SOS", "TEST"])
  func aShortMessageFoundUnderADriftingExposureIsRead(text: String) throws {
    var scene = SyntheticScene.hard
    (scene.width, scene.height, scene.lightX, scene.lightY) = (320, 240, 200, 80)
    let (read, events) = read(scene.frames(showing: try edges(text, wpm: 12)))
    #expect(read == text, "\(events)")
  }

  /// A light in a room whose light flickers by 15 % ten times a second (the background's
  /// brightness, not the light's). Before: the flicker, in every block, was taken for noise
  /// as large as the light's blinking, and nothing was found.
  @Test(arguments: [10, 20])
  func aLightUnderFlickeringRoomLightReadsBackExactly(wpm: Int) throws {
    var scene = SyntheticScene()
    scene.flicker = 0.15
    scene.lightBrightness = 120
    scene.hasHeartbeat = true
    let frames = scene.frames(showing: try edges("PARIS CQ", wpm: wpm))
    let (text, events) = read(frames)
    #expect(text == "PARIS CQ")
    #expect(events.count == 1)
  }

  /// The light on from before the first frame for 1.5 s, then PARIS a second after it went
  /// off. Its light is no dark level (before, only 2 edges of the 30 were read: of a video of
  /// PARIS CQ 73 lit so at its start, "E TTTT Q 73"); and, its start unseen and six times as
  /// long as any mark after it, it is no mark of the message (it read as a T before PARIS):
  /// PARIS's edges, each within a frame.
  @Test func aLightOnFromTheFirstFrameIsNoMarkOfTheMessage() throws {
    let message = try edges("PARIS", wpm: 15).map {
      MorseEdge(time: $0.time + .milliseconds(2500), isOn: $0.isOn)
    }
    let shown = [
      MorseEdge(time: .origin, isOn: true),
      MorseEdge(time: .origin + .milliseconds(1500), isOn: false),
    ]
    let frames = SyntheticScene().frames(showing: shown + message, lead: .zero)
    var light = LightReceiver(frameInterval: .seconds(1.0 / 30))
    let read = frames.flatMap { light.receive($0) }.compactMap { event -> MorseEdge? in
      if case .edge(let edge) = event { edge } else { nil }
    }
    try #require(read.count == message.count, "\(read)")
    // Within a frame (33 ms) of where they were.
    func isNear(_ seen: MorseEdge, _ sent: MorseEdge) -> Bool {
      seen.isOn == sent.isOn && seen.time > sent.time - .milliseconds(34)
        && seen.time < sent.time + .milliseconds(34)
    }
    for (seen, sent) in zip(read, message) { #expect(isNear(seen, sent), "\(seen)") }
  }

  @Test(arguments: [5, 12, 20])
  func aShakingCameraIsFollowed(wpm: Int) throws {
    var scene = SyntheticScene()
    scene.isBlurred = true
    scene.noise = 4
    scene.hasLamp = true
    scene.hasHeartbeat = true
    scene.shake = 4
    let frames = scene.frames(showing: try edges("THE QUICK FOX", wpm: wpm))
    #expect(read(frames).text == "THE QUICK FOX")
  }

  /// A light carried across the picture (or a camera panning over a dark scene) at 8 to 14
  /// pixels a second, half a block to a block (8 pixels) between two looks; and a camera shaking by
  /// 10 or 12 pixels: followed from where its last mark lit most. Before, it left its spot
  /// while dark and was lost, or read again seconds later in pieces. Not yet: 10 and 16 px/s
  /// and an 8 px shake of this small light (radius 3) lose a character or more, as 20 px/s
  /// does in the video study.
  @Test(arguments: [(8.0, 0.0), (12.0, 0.0), (14.0, 0.0), (0.0, 10.0), (0.0, 12.0)])
  func aLightCarriedAcrossThePictureOrShakenIsFollowed(speed: Double, shake: Double) throws {
    var scene = SyntheticScene()
    (scene.lightX, scene.lightY) = (20, 70)
    scene.pan = (x: speed, y: -speed / 4)
    scene.shake = shake
    let (text, events) = read(scene.frames(showing: try edges("PARIS CQ", wpm: 15)))
    #expect(text == "PARIS CQ", "\(events)")
  }

  /// Up to three frames missing in a row (100 ms unseen) at 10 WPM, up to two at 15 WPM
  /// (two frames are shorter than a dot; three could hide one whole).
  @Test(arguments: [
    (10, [40]), (10, [40, 41]), (10, [40, 41, 42]), (10, [30, 95, 96, 150, 151, 152]),
    (15, [40]), (15, [52, 53]), (15, [30, 150, 151, 200, 201]),
  ])
  func droppedFramesLoseNothing(wpm: Int, dropped: [Int]) throws {
    var scene = SyntheticScene()
    scene.droppedFrames = Set(dropped)
    let frames = scene.frames(showing: try edges("PARIS PARIS", wpm: wpm))
    #expect(read(frames).text == "PARIS PARIS")
  }
}

@Test func theSlidingMinimumIsTheLowestWithinReach() {
  let values: [Double] = [5, 3, 8, 1, 9, 9, 2, 7, 6, 4]
  let expected = values.indices.map { index in
    values[max(index - 2, 0)...min(index + 2, values.count - 1)].min()!
  }
  #expect(BlinkAnalysis.lowest(values, within: 2) == expected)
}

extension LightReceiverTests {
  /// A dot of 1.2 frames at 30 WPM and 30 fps, of 1.2 frames at 60 WPM and 60 fps: whole
  /// frames would place each edge only to a frame (33 or 17 ms).
  @Test(arguments: [(30, 30.0), (60, 60.0)])
  func subFrameTimingReadsADotOfLittleMoreThanAFrame(wpm: Int, fps: Double) throws {
    var scene = SyntheticScene()
    scene.framesPerSecond = fps
    let frames = scene.frames(showing: try edges("THE QUICK BROWN FOX 1234567890", wpm: wpm))
    #expect(read(frames, fps: fps).text == "THE QUICK BROWN FOX 1234567890")
  }

  @Test func aGivenRegionIsReadWithoutLookingElsewhere() throws {
    var scene = SyntheticScene()
    scene.hasHeartbeat = true
    var settings = LightReceiver.Settings()
    settings.region = LightRegion(x: 94, y: 34, width: 12, height: 12)
    let frames = scene.frames(showing: try edges("CQ CQ", wpm: 15))
    let (text, events) = read(frames, settings: settings)
    #expect(text == "CQ CQ")
    #expect(events.count == 1)
    if case .found(let region, _) = events.first { #expect(region == settings.region) }
  }
}

extension LightReceiverTests {
  /// Frame by frame as a camera gives them: each character is printed by the frame that
  /// ends two dots after the character's last mark (the receiver's wait for the gap), and
  /// one frame more (the frame that shows the light off).
  @Test func eachCharacterIsPrintedWithinTwoDotsAndAFrameOfItsEnd() throws {
    let timing = try MorseTiming(wordsPerMinute: 15)
    let sent = MorseEdge.edges(of: MorseSteps(try MorseMessage("PARIS PARIS"), timing: timing))
    let frames = SyntheticScene().frames(showing: sent)
    var light = LightReceiver(frameInterval: .seconds(1.0 / 30))
    var receiver = MorseReceiver()
    var printedAt: [MonotonicInstant] = []
    for frame in frames {
      var outputs: [MorseReceiver.Output] = []
      for case .edge(let edge) in light.receive(frame) { outputs += receiver.receive(edge) }
      outputs += receiver.advance(to: frame.time + .seconds(1.0 / 30))
      for output in outputs {
        if case .text = output { printedAt.append(frame.time + .seconds(1.0 / 30)) }
      }
    }
    // The light was found after the first word: from the second word on, live.
    let ends = sent.filter { !$0.isOn }.map { $0.time + .seconds(1) }
    let characterEnds = [3, 5, 8, 10, 13].map { ends[$0 + 14] }
    let delays = zip(printedAt.suffix(5), characterEnds).map { $0 - $1 }
    let bound = timing.unit * 2 + .seconds(1.0 / 30) + .milliseconds(1)
    #expect(delays.count == 5 && delays.allSatisfy { $0 > .zero && $0 <= bound }, "\(delays)")
  }
}

extension LightReceiverTests {
  /// A torch filmed from close by fills the picture: every block blinks at once (the noise
  /// is measured from the frames between its edges), here at 15 fps with whole frames only.
  @Test func aLightFillingThePictureIsRead() throws {
    let edges = try edges("PARIS", wpm: 8)
    let interval = Duration.seconds(1) / 15
    var frames: [LightFrame] = []
    var next = 0
    var isOn = false
    var time = MonotonicInstant.origin
    while time < edges.last!.time + .seconds(4) {
      while next < edges.count && edges[next].time + .seconds(1) <= time {
        isOn = edges[next].isOn
        next += 1
      }
      // Eight vertical bars, brightened or darkened all together.
      let luma = (0..<(320 * 180)).map { index in
        UInt8(clamping: (index % 320) / 40 * 20 + (isOn ? 150 : -100))
      }
      frames.append(
        LightFrame(width: 320, height: 180, luma: luma.map { max($0, 16) }, time: time)!)
      time += interval
    }
    let (text, events) = read(frames, fps: 15)
    #expect(text == "PARIS")
    #expect(events.count == 1)
  }
}

extension LightReceiverTests {
  /// A light that stops blinking is said to be lost once nothing has blinked for 10 s, and
  /// is looked for again (found again when it blinks anew).
  @Test func aLightThatStopsIsLostAfterTenSecondsAndFoundAgain() throws {
    let scene = SyntheticScene()
    let first = scene.frames(showing: try edges("PARIS", wpm: 12), tail: .seconds(12))
    let shift = first.last!.time.sinceOrigin + .seconds(1) / 30
    let again = scene.frames(showing: try edges("CQ", wpm: 12)).map {
      LightFrame(width: $0.width, height: $0.height, luma: $0.luma, time: $0.time + shift)!
    }
    let (text, events) = read(first + again)
    #expect(text == "PARIS\nCQ" || text == "PARIS CQ", "\(text) \(events)")
    let lost = events.compactMap { event -> MonotonicInstant? in
      if case .lost(_, let time) = event { return time }
      return nil
    }
    #expect(lost.count == 1, "\(events)")
    // The last edge of PARIS is 1 s + its length in; lost 10-10.5 s after it (searches are
    // half a second apart).
    let lastEdge = try edges("PARIS", wpm: 12).last!.time + .seconds(1)
    #expect(
      lost.allSatisfy { $0 - lastEdge >= .seconds(10) && $0 - lastEdge <= .milliseconds(10_600) },
      "\(lost)")
    #expect(
      events.filter { if case .found = $0 { return true } else { return false } }.count == 2,
      "\(events)")
  }
}

extension LightReceiverTests {
  /// The light set down elsewhere between two words (a torch moved across the table) is
  /// said to have moved, and its text is read on.
  @Test func aLightThatMovesIsFollowed() throws {
    let edges = try edges("PARIS PARIS", wpm: 12)
    // Cut in the word gap: the first word at one place, the second at another.
    let cut = try #require(
      (1..<edges.count).first {
        edges[$0].isOn && edges[$0].time - edges[$0 - 1].time > .milliseconds(500)
      })
    var first = SyntheticScene()
    (first.lightX, first.lightY) = (40, 30)
    var second = SyntheticScene()
    (second.lightX, second.lightY) = (120, 90)
    let before = first.frames(showing: Array(edges[..<cut]), tail: .zero)
    let start = before.last!.time.sinceOrigin + .seconds(1) / 30
    let rest = edges[cut...].map {
      MorseEdge(time: .origin + ($0.time - edges[cut].time), isOn: $0.isOn)
    }
    let after = second.frames(showing: rest, lead: .milliseconds(500)).map {
      LightFrame(width: $0.width, height: $0.height, luma: $0.luma, time: $0.time + start)!
    }
    let (text, events) = read(before + after)
    #expect(text == "PARIS PARIS" || text == "PARIS\nPARIS", "\(text) \(events)")
    let kinds = events.map { event -> String in
      switch event {
      case .found(let region, _): "found \(region.x < 80 ? "left" : "right")"
      case .moved(let region, _): "moved \(region.x < 80 ? "left" : "right")"
      case .lost: "lost"
      case .edge: "edge"
      }
    }
    #expect(kinds == ["found left", "moved right"], "\(events)")
  }
}
