import Instants
import MorseCore
import MorseCorpus
import MorseTestSupport
import Testing

@testable import MorseReceiving

// A light whose blinking changes much of the picture: a screen or a torch filling the frame,
// a glow over the wall, a camera's exposure hunting after it. The picture-wide change is the
// message then, not flicker to take out: taken out, it left the message's negative, and the
// dark was read as marks (a pillarbox's black bars, a block lit less than the rest).

@Suite struct WholePictureLightTests {
  /// A phone's screen flashing, filling a pillarboxed picture: the black bars (exactly 0)
  /// never change, and the corners it lights less than the middle are not the light either.
  @Test func aScreenFillingThePictureBetweenBlackBarsIsReadNotItsNegative() throws {
    var scene = SyntheticScene()
    (scene.lightX, scene.lightY, scene.lightRadius) = (80, 60, 75)
    scene.lightBrightness = 150
    scene.border = 24
    let (text, events) = read(scene.frames(showing: try edges("SOS SOS", wpm: 8)))
    #expect(text == "SOS SOS", "\(events)")
  }

  /// A torch filmed close by, its glow lighting the wall it stands by (two thirds of the
  /// picture, a third brighter) and not the doorway beside it; with the camera's exposure
  /// steady, and hunting after it (darkening the picture a few frames after each flash).
  /// Or a light filling the picture, the exposure hunting.
  @Test(arguments: [(0.35, 0.7, 0.0, 8.0), (0.35, 0.7, 0.3, 8.0), (1.5, 1.0, 0.3, 70.0)])
  func aLightThatLightsMuchOfThePictureIsRead(
    glow: Double, cover: Double, autoExposure: Double, radius: Double
  ) throws {
    var scene = SyntheticScene()
    (scene.glow, scene.glowCover, scene.autoExposure) = (glow, cover, autoExposure)
    scene.lightRadius = radius
    if radius > 20 { (scene.lightX, scene.lightY) = (80, 60) }
    let (text, events) = read(scene.frames(showing: try edges("PARIS PARIS", wpm: 10)))
    #expect(text == "PARIS PARIS", "\(events)")
  }

  /// The levels of `edges` seen at 30 fps from `lead` before the first: 200 lit, 50 dark,
  /// or the other way round (`inverted`).
  private func levels(_ edges: [MorseEdge], lead: Double, inverted: Bool = false) -> [Double] {
    let end = edges.last!.time.sinceOrigin / .seconds(1) + lead + 1
    return (0..<Int(end * 30)).map { frame in
      let time = Double(frame) / 30 - lead
      let lit = edges.last { $0.time.sinceOrigin / .seconds(1) <= time }?.isOn ?? false
      return lit != inverted ? 200 : 50
    }
  }

  /// A wall the camera's exposure darkens while a torch is on blinks the message upside down:
  /// its longest lit run is the torch's word gap, longer than any dash. The torch
  /// itself, and a lamp whose marks are long and its gaps short (after its dark lead-in), are
  /// the right way up.
  @Test func aSpotThatBlinksTheMessageUpsideDownIsToldByItsRuns() throws {
    let sent = try edges("SOS SOS", wpm: 9)
    #expect(BlinkAnalysis(levels(sent, lead: 1, inverted: true)).looksInverted)
    #expect(!BlinkAnalysis(levels(sent, lead: 1)).looksInverted)
    var lamp = Fist()
    (lamp.dashUnits, lamp.elementGapUnits, lamp.letterGapUnits) = (2.3, 0.15, 1.25)
    var random = SplitMix64(state: 3)
    let pieces = keyPieces("SOS", fist: lamp, speed: .steady(2.4), random: &random)
    let lampEdges = NoisyChannel().edges(of: pieces, random: &random)
    #expect(!BlinkAnalysis(levels(lampEdges, lead: 2)).looksInverted)
  }
}

@Suite struct EarlyLightTests {
  /// A strong light whose glow brightens the room, that has sent only dots so far, beside a
  /// faint one keyed faster that has shown dots and dashes already (seen once the glow is
  /// taken out): the strong light is waited for, and read from its first mark, not the faint
  /// one (a wall lit by a torch, a phone's edge shaken as its button is pressed, found first
  /// and read instead).
  @Test func aStrongLightEarlyInItsMessageIsWaitedForNotAFaintOneReadFirst() throws {
    var scene = SyntheticScene()
    scene.glow = 0.3
    scene.otherLight = (x: 40, y: 90, brightness: 30, edges: try edges("TEST TEST TEST", wpm: 15))
    let sent = try edges("SOS SOS", wpm: 9)
    let (text, events) = read(scene.frames(showing: sent, lead: .milliseconds(500)))
    #expect(text == "SOS SOS", "\(events)")
    // The faint light is one to read, where it is the only one.
    (scene.lightBrightness, scene.glow) = (0, 0)
    #expect(read(scene.frames(showing: sent, lead: .milliseconds(500))).text == "TEST TEST TEST")
  }
}

@Suite struct SlowLightVideoTests {
  /// A lamp keyed at 1.5 WPM (a dot of 0.8 s, a dash of 2.4 s, a word gap of 5.6 s), filmed:
  /// found, followed through its long dashes and pauses, and read.
  @Test func aLampAtOneAndAHalfWordsPerMinuteIsRead() throws {
    var fist = Fist()
    fist.jitter = 0.05
    var random = SplitMix64(state: 11)
    let pieces = keyPieces("TEST ME", fist: fist, speed: .steady(1.5), random: &random)
    let sent = NoisyChannel().edges(of: pieces, random: &random)
    let (text, events) = read(SyntheticScene().frames(showing: sent, lead: .seconds(3)))
    #expect(text == "TEST ME", "\(events)")
  }

  /// A light on for 2 s long before its message (8 s of dark between), found in the last
  /// seconds' frames as its message goes on: what it sent before it was found is read from
  /// the dark stretch on, not the light left on before (that was no `T`).
  @Test func aLightOnLongBeforeItsMessageIsNoPartOfIt() throws {
    let message = try edges("PARIS PARIS", wpm: 15).map {
      MorseEdge(time: $0.time + .seconds(10), isOn: $0.isOn)
    }
    let sent =
      [
        MorseEdge(time: .origin, isOn: true), MorseEdge(time: .origin + .seconds(2), isOn: false),
      ] + message
    let (text, events) = read(SyntheticScene().frames(showing: sent, lead: .milliseconds(100)))
    #expect(
      text == "PARIS PARIS", "\(events.filter { if case .edge = $0 { false } else { true } })")
  }

  /// A light already on when the recording begins, its start unseen, for half as long again
  /// as any mark after it or more (a lamp left on, then switched off to send): no element,
  /// the message read from after it, at any speed.
  @Test(arguments: [(15, 0.5), (15, 1.2), (8, 1.4), (25, 3.0), (12, 0.8)])
  func aLightOnWhenTheRecordingBeganIsNoElement(wpm: Int, seconds: Double) throws {
    let message = try edges("PARIS CQ", wpm: wpm).map {
      MorseEdge(time: $0.time + .seconds(seconds + 1.2), isOn: $0.isOn)
    }
    let sent =
      [
        MorseEdge(time: .origin, isOn: true),
        MorseEdge(time: .origin + .seconds(seconds), isOn: false),
      ]
      + message
    let (text, events) = read(SyntheticScene().frames(showing: sent, lead: .zero))
    #expect(text == "PARIS CQ", "\(events.filter { if case .edge = $0 { false } else { true } })")
  }

  /// A recording that begins on the message's first mark (a dash, a dot) loses none of it:
  /// seen cut, it is no longer than the marks after it.
  @Test(arguments: ["TEST", "EAST", "MAN"])
  func aRecordingThatBeginsOnTheFirstMarkReadsIt(text sent: String) throws {
    let (text, events) = read(
      SyntheticScene().frames(showing: try edges(sent, wpm: 12), lead: .zero))
    #expect(text == sent, "\(events.filter { if case .edge = $0 { false } else { true } })")
  }

  /// A lamp whose light follows the key slowly (a filament, a lamp through haze: a time
  /// constant of 0.1 to 0.2 s, so that it takes a fifth to half a second to rise most of the
  /// way), keyed at 2.5 WPM: found (its swings were too slow to count as edges), its first
  /// marks read though it is found seconds later (they were left out), and read by the
  /// sender's timing, as a file and as it comes, with and without its place given.
  @Test(arguments: [0.1, 0.13, 0.16, 0.2], [MorseReceiver.LookAhead.wholeLine, .heldBack])
  func aLampWhoseLightFollowsTheKeySlowlyIsFoundAndRead(
    lag: Double, lookAhead: MorseReceiver.LookAhead
  ) throws {
    var scene = SyntheticScene()
    scene.lag = lag
    var receiving = MorseReceiver.Settings()
    receiving.lookAhead = lookAhead
    var told = LightReceiver.Settings()
    told.region = LightRegion(x: 96, y: 32, width: 8, height: 16)
    for text in ["WHAT", "HELLO WORLD"] {
      let sent = try edges(text, timing: MorseTiming(unit: .milliseconds(480)))
      let frames = scene.frames(showing: sent, lead: .seconds(2))
      for light in [LightReceiver.Settings(), told] {
        var reading = LightReceiver(settings: light, frameInterval: .seconds(1.0 / 30))
        var receiver = MorseReceiver(settings: receiving)
        var outputs: [MorseReceiver.Output] = []
        var found = false
        for frame in frames {
          for event in reading.receive(frame) {
            if case .edge(let edge) = event { outputs += receiver.receive(edge) }
            if case .found = event { found = true }
          }
        }
        outputs += receiver.finish()
        #expect(found, "lag \(lag), \(light)")
        let read = MorseCorpus.text(of: outputs)
        #expect(read == text + "\n", "lag \(lag), \(light)")
      }
    }
  }
}
