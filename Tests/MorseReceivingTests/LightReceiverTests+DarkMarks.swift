import MorseTestSupport
import Testing

@testable import MorseReceiving

/// A lamp lit while idle and dark for the marks (shuttered or dimmed to send).
extension LightReceiverTests {
  /// The lamp lit while idle, dark for the marks of `text` at `wpm`.
  private func darkMarks(_ text: String, wpm: Int = 12) throws -> [LightFrame] {
    var scene = SyntheticScene()
    scene.isLitWhileIdle = true
    scene.hasHeartbeat = true
    return scene.frames(showing: try edges(text, wpm: wpm))
  }

  @Test(arguments: [8, 12, 20])
  func aLampLitWhileIdleReadsRightWhenMarksAreDark(wpm: Int) throws {
    var settings = LightReceiver.Settings()
    settings.marksAreDark = true
    let (text, events) = read(try darkMarks("PARIS CQ", wpm: wpm), settings: settings)
    #expect(text == "PARIS CQ")
    let found = try #require(events.first)
    if case .found(let region, _) = found {
      #expect(region.overlaps(LightRegion(x: 97, y: 37, width: 6, height: 6)!), "\(region)")
    } else {
      Issue.record("\(found)")
    }
  }

  @Test func aLampLitWhileIdleInAGivenRegionReadsRightWhenMarksAreDark() throws {
    var settings = LightReceiver.Settings()
    settings.marksAreDark = true
    settings.region = LightRegion(x: 96, y: 36, width: 8, height: 8)
    #expect(read(try darkMarks("PARIS CQ"), settings: settings).text == "PARIS CQ")
  }

  @Test func aLampLitWhileIdleIsNotReadAsItsNegativeWithoutBeingTold() throws {
    #expect(read(try darkMarks("PARIS CQ")).text != "PARIS CQ")
  }
}
