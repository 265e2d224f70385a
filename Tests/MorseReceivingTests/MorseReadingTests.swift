import Instants
import MorseCore
import MorseCorpus
import MorseTestSupport
import Testing

@testable import MorseReceiving

/// Every event a reading gives for `inputs`, then its last outputs.
private func events(
  _ inputs: [MorseReading.Input], reading: MorseReading
) -> (events: [MorseReading.Event], final: [MorseReceiver.Output]) {
  var reading = reading
  var events: [MorseReading.Event] = []
  for input in inputs { reading.read(input) { events.append($0) } }
  return (events, outputs(reading.finish()))
}

/// The text in `outputs`, as `receive` prints it.
private func text(_ outputs: [MorseReceiver.Output]) -> String {
  outputs.map { output in
    switch output {
    case .text(let text): text
    case .space: " "
    case .lineBreak: "\n"
    }
  }.joined()
}

private func outputs(_ events: [MorseReading.Event]) -> [MorseReceiver.Output] {
  events.compactMap { if case .output(let output) = $0 { output } else { nil } }
}

@Suite struct MorseReadingTests {
  @Test func edgesReadAsTheReceiverReadsThemEachGivenBeforeWhatItDecodes() throws {
    let keyed = try edges("PARIS CQ")
    let (read, final) = events(keyed.map { .edge($0) }, reading: MorseReading(receiver: MorseReceiver()))
    var receiver = MorseReceiver()
    var expected: [MorseReading.Event] = []
    for edge in keyed { expected += [.edge(edge)] + receiver.receive(edge).map { .output($0) } }
    #expect(read == expected)
    #expect(final == receiver.finish())
    #expect(text(outputs(read) + final).trimmingNewlines == "PARIS CQ")
  }

  @Test func silenceEndsTheLastCharacterWithoutTheEnd() throws {
    let keyed = try edges("PARIS PARIS")
    let last = try #require(keyed.last)
    let inputs = keyed.map { MorseReading.Input.edge($0) } + [.quiet(until: last.time + .seconds(2))]
    let (read, final) = events(inputs, reading: MorseReading(receiver: MorseReceiver()))
    #expect(text(outputs(read)).trimmingNewlines == "PARIS PARIS")
    #expect(text(final).trimmingNewlines.isEmpty)
  }

  /// The path `receive` took before the reading was a type of its own: the light receiver's
  /// edges decoded as they come, the time of each frame passed after it.
  @Test(arguments: [10, 20])
  func framesGiveWhatTheLightAndMorseReceiversGaveByHand(wpm: Int) throws {
    var scene = SyntheticScene()
    scene.hasHeartbeat = true
    let frames = scene.frames(showing: try edges("CQ TEST", wpm: wpm))
    let interval = Duration.seconds(1 / scene.framesPerSecond)
    let origin = try #require(frames.first).time
    var light = LightReceiver(frameInterval: interval)
    var receiver = MorseReceiver()
    var expected: [MorseReading.Event] = []
    for frame in frames {
      for event in light.receive(frame) {
        switch event {
        case .edge(let edge):
          expected += [.edge(edge)] + receiver.receive(edge).map { .output($0) }
        case .found(let region, let time): expected.append(.found(region, after: time - origin))
        case .moved(let region, let time): expected.append(.moved(region, after: time - origin))
        case .lost(let region, let time): expected.append(.lost(region, after: time - origin))
        }
      }
      expected += receiver.advance(to: frame.time).map { .output($0) }
    }
    let reading = MorseReading(
      receiver: MorseReceiver(), light: LightReceiver(frameInterval: interval))
    let (read, final) = events(frames.map { .frame($0) }, reading: reading)
    #expect(read == expected)
    #expect(final == receiver.finish())
    #expect(text(outputs(read) + final).trimmingNewlines == "CQ TEST")
    #expect(read.contains { if case .found = $0 { true } else { false } })
  }

  @Test func anEdgeTheHandlerRefusesIsNeverDecoded() throws {
    let keyed = try edges("T")
    var reading = MorseReading(receiver: MorseReceiver())
        #expect(throws: Refused.self) {
      try reading.read(.edge(keyed[0])) { (event) throws(Refused) in
        if case .edge = event { throw Refused() }
      }
    }
    // The reading goes on as if the refused edge had not come: a lone off edge reads as
    // nothing.
    reading.read(.edge(keyed[1])) { _ in }
    #expect(outputs(reading.finish()).allSatisfy { $0 == .lineBreak })
  }

  @Test func theSightingSaysWhatTheFramesShowed() throws {
    #expect(MorseReading(receiver: MorseReceiver()).sighting == .noFrames)
    let interval = Duration.milliseconds(40)
    var settings = LightReceiver.Settings()
    settings.region = LightRegion(x: 8, y: 8, width: 16, height: 16)
    var reading = MorseReading(
      receiver: MorseReceiver(), light: LightReceiver(settings: settings, frameInterval: interval))
    #expect(reading.sighting == .noFrame)
    for number in 0..<51 {
      let frame = try #require(
        LightFrame(
          width: 32, height: 32, luma: [UInt8](repeating: 20, count: 32 * 32),
          time: .origin + .seconds(100) + interval * number))
      reading.read(.frame(frame)) { _ in }
    }
    #expect(reading.sighting == .notFound(watched: .seconds(2), region: settings.region))
    var found = MorseReading(receiver: MorseReceiver(), light: LightReceiver(frameInterval: interval))
    for frame in SyntheticScene().frames(showing: try edges("PARIS")) {
      found.read(.frame(frame)) { _ in }
    }
    #expect(found.sighting == .found)
  }

  @Test func aFrameWithoutALightReceiverIsIgnored() throws {
    var reading = MorseReading(receiver: MorseReceiver())
    let frame = try #require(LightFrame(width: 1, height: 1, luma: [255], time: .origin))
    var events: [MorseReading.Event] = []
    reading.read(.frame(frame)) { events.append($0) }
    #expect(events.isEmpty)
    #expect(reading.sighting == .noFrames)
  }
}

/// What a handler throws to refuse an event.
private struct Refused: Error {}

extension String {
  /// Without the line breaks at either end.
  fileprivate var trimmingNewlines: String {
    String(drop { $0 == "\n" }.reversed().drop { $0 == "\n" }.reversed())
  }
}

@Suite struct MorseReadingDoubtTests {
  @Test func aSpeedAtTheEndOfTheRangeIsDoubtedOnceAfterTheCharacterReadAtIt() throws {
    var reading = MorseReading(receiver: MorseReceiver())
    var events: [MorseReading.Event] = []
    for edge in try edges("PARIS PARIS", wpm: 60) { reading.read(.edge(edge)) { events.append($0) } }
    events += reading.finish()
    let doubts = events.filter { if case .doubt = $0 { true } else { false } }
    #expect(doubts.count == 1)
    let first = try #require(events.firstIndex { if case .doubt = $0 { true } else { false } })
    #expect(first > 0)
    if case .output(.text) = events[first - 1] {} else { Issue.record("\(events[first - 1])") }
    #expect(reading.characters == 10)
    #expect(reading.doubts.isDoubtful)
  }

  @Test func aReadingAtAnEverydaySpeedRaisesNoDoubt() throws {
    var reading = MorseReading(receiver: MorseReceiver())
    var events: [MorseReading.Event] = []
    for edge in try edges("PARIS PARIS", wpm: 20) { reading.read(.edge(edge)) { events.append($0) } }
    events += reading.finish()
    #expect(!events.contains { if case .doubt = $0 { true } else { false } })
    #expect(reading.characters == 10)
  }

  /// Where a light is found says nothing of what was read: a light in the picture's corner,
  /// or one that fills it (a screen flashed whole), is read with no doubt.
  @Test(arguments: [(2.0, 2.0, 3.0), (158.0, 60.0, 3.0), (80.0, 60.0, 90.0)])
  func aLightAtThePicturesEdgeOrFillingItRaisesNoDoubt(x: Double, y: Double, radius: Double)
    throws
  {
    var scene = SyntheticScene()
    (scene.lightX, scene.lightY, scene.lightRadius) = (x, y, radius)
    let frames = scene.frames(showing: try edges("PARIS PARIS", wpm: 10))
    let interval = Duration.seconds(1 / scene.framesPerSecond)
    var settings = MorseReceiver.Settings()
    settings.lookAhead = .wholeLine
    let reading = MorseReading(
      receiver: MorseReceiver(settings: settings), light: LightReceiver(frameInterval: interval))
    let (read, final) = events(frames.map { .frame($0) }, reading: reading)
    #expect(text(outputs(read) + final).trimmingNewlines == "PARIS PARIS", "\(read)")
    #expect(!read.contains { if case .doubt = $0 { true } else { false } }, "\(read)")
  }
}

/// Doubt from the reading's own margin: a light switched at random (a bulb switched by hand,
/// a light lost and another found) is doubted, Morse read exactly is not, whatever its
/// sender.
@Suite struct ModelDoubtTests {
  /// The doubts of reading `keyed` by the sender's own timing, and the text read.
  private func read(_ keyed: [MorseEdge], _ lookAhead: MorseReceiver.LookAhead)
    -> (text: String, doubts: [ReadDoubts.Doubt])
  {
    var settings = MorseReceiver.Settings()
    settings.lookAhead = lookAhead
    var reading = MorseReading(receiver: MorseReceiver(settings: settings))
    var read: [MorseReading.Event] = []
    for edge in keyed { reading.read(.edge(edge)) { read.append($0) } }
    read += reading.finish()
    let doubts = read.compactMap { if case .doubt(let doubt) = $0 { doubt } else { nil } }
    return (text(outputs(read)).trimmingNewlines, doubts)
  }

  /// Switched on and off at random: each time on and off between `shortest` and 12 times it
  /// (evenly in the log), 60 times.
  private func switched(seed: UInt64, shortest: Double) -> [MorseEdge] {
    var random = SplitMix64(state: seed)
    var time = MonotonicInstant.origin + .seconds(1)
    var keyed: [MorseEdge] = []
    for index in 0..<120 {
      keyed.append(MorseEdge(time: time, isOn: index % 2 == 0))
      let length = shortest * LetterShares.exponential(Double.random(in: 0...2.5, using: &random))
      time += .seconds(length)
    }
    return keyed
  }

  @Test(arguments: [(1, 0.05), (2, 0.2), (3, 0.5), (4, 0.1), (5, 0.3), (6, 1.0)])
  func aLightSwitchedAtRandomIsDoubted(seed: UInt64, shortest: Double) {
    for lookAhead in [MorseReceiver.LookAhead.wholeLine, .heldBack] {
      let (text, doubts) = read(switched(seed: seed, shortest: shortest), lookAhead)
      #expect(
        doubts.contains { if case .unsure = $0 { true } else { false } },
        "\(lookAhead): \(text) \(doubts)")
    }
  }

  /// A light that blinks its message and goes dark, and another found after it that is
  /// switched at random (a lamp switched by hand across the room): doubted, and the text of
  /// the first still read.
  @Test(arguments: [UInt64(7), 8, 9])
  func aLightLostAndAnotherFoundSwitchedAtRandomIsDoubted(seed: UInt64) throws {
    var scene = SyntheticScene()
    let message = try edges("PARIS", wpm: 12)
    let end = try #require(message.last).time
    let other = switched(seed: seed, shortest: 0.3).map {
      MorseEdge(time: $0.time + (end - .origin) + .seconds(6), isOn: $0.isOn)
    }
    scene.otherLight = (x: 40, y: 90, brightness: 180, edges: other)
    let frames = scene.frames(
      showing: message, tail: try #require(other.last).time - end + .seconds(2))
    var settings = MorseReceiver.Settings()
    settings.lookAhead = .wholeLine
    var reading = MorseReading(
      receiver: MorseReceiver(settings: settings),
      light: LightReceiver(frameInterval: .seconds(1 / scene.framesPerSecond)))
    var read: [MorseReading.Event] = []
    for frame in frames { reading.read(.frame(frame)) { read.append($0) } }
    read += reading.finish()
    let said = text(outputs(read)).trimmingNewlines
    #expect(said.hasPrefix("PARIS"), "\(said)")
    #expect(read.contains { if case .doubt(.unsure) = $0 { true } else { false } }, "\(said)")
  }

  /// Senders of every kind in the corpus, read exactly, raise no doubt.
  @Test(arguments: [
    ReceiverCorpus.Condition.ideal5, .ideal25, .ideal40, .hand15, .drift15to25, .farnsworth18of8,
    .bounce,
  ])
  func morseReadExactlyRaisesNoDoubt(condition: ReceiverCorpus.Condition) {
    for message in ReceiverCorpus.messages(condition, seed: 11).prefix(3) {
      for lookAhead in [MorseReceiver.LookAhead.wholeLine, .heldBack] {
        let (text, doubts) = read(message.edges, lookAhead)
        guard characterErrors(read: text, sent: message.text).errors == 0 else { continue }
        #expect(doubts.isEmpty, "\(lookAhead): \(text) \(doubts)")
      }
    }
  }
}
