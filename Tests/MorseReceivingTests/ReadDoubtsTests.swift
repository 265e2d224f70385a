import Instants
import MorseCore
import MorseTestSupport
import Testing

@testable import MorseReceiving

/// A region, or a failed test.
private func region(_ x: Int, _ y: Int, _ width: Int, _ height: Int) throws -> LightRegion {
  try #require(LightRegion(x: x, y: y, width: width, height: height))
}

@Suite struct ReadDoubtsTests {
  @Test(arguments: [
    (1.0, ReadDoubts.Doubt.slowSpeed(wordsPerMinute: 1)),
    (1.25, .slowSpeed(wordsPerMinute: 1.25)),
    (50, .fastSpeed(wordsPerMinute: 50)),
    (60, .fastSpeed(wordsPerMinute: 60)),
  ])
  func aSpeedAtEitherEndOfTheRangeIsDoubtful(wpm: Double, doubt: ReadDoubts.Doubt) {
    var doubts = ReadDoubts(speeds: 1...60)
    #expect(doubts.read("E", wordsPerMinute: wpm) == doubt)
    #expect(doubts.isDoubtful)
  }

  @Test(arguments: [1.3, 15, 49])
  func aSpeedInsideTheRangeIsNot(wpm: Double) {
    var doubts = ReadDoubts(speeds: 1...60)
    #expect(doubts.read("E", wordsPerMinute: wpm) == nil)
    #expect(doubts.finish().isEmpty)
    #expect(!doubts.isDoubtful)
    #expect(doubts.characters == 1)
  }

  @Test func eachKindOfDoubtIsGivenOnce() throws {
    var doubts = ReadDoubts(speeds: 1...60)
    #expect(doubts.read("E", wordsPerMinute: 1) == .slowSpeed(wordsPerMinute: 1))
    #expect(doubts.read("T", wordsPerMinute: 60) == nil)
    #expect(doubts.found(try region(0, 0, 8, 8), width: 160, height: 120) != nil)
    #expect(doubts.found(try region(0, 0, 160, 120), width: 160, height: 120) == nil)
    for _ in 0..<3 { _ = doubts.read("[......]", wordsPerMinute: 15) }
    #expect(doubts.finish() == [.unknownCodes(3, of: 5)])
    #expect(doubts.finish().isEmpty)
  }

  @Test func aLightAgainstThePicturesEdgeOrFillingItIsDoubtful() throws {
    let cases: [(LightRegion, ReadDoubts.Doubt?)] = [
      (try region(0, 0, 8, 8), .lightAtEdge(try region(0, 0, 8, 8))),
      (try region(152, 50, 8, 8), .lightAtEdge(try region(152, 50, 8, 8))),
      (try region(60, 112, 8, 8), .lightAtEdge(try region(60, 112, 8, 8))),
      (try region(0, 0, 160, 120), .wholePicture(try region(0, 0, 160, 120))),
      (try region(10, 10, 140, 100), .wholePicture(try region(10, 10, 140, 100))),
      (try region(96, 36, 8, 8), nil),
    ]
    for (found, doubt) in cases {
      var doubts = ReadDoubts(speeds: 1...60)
      #expect(doubts.found(found, width: 160, height: 120) == doubt, "\(found)")
    }
  }

  @Test(arguments: [(3, 12, false), (3, 11, true), (2, 4, false), (4, 10, true)])
  func manyCodesWithNoMeaningAreDoubtfulAtTheEnd(unknown: Int, of characters: Int, isDoubtful: Bool) {
    var doubts = ReadDoubts(speeds: 1...60)
    for number in 0..<characters {
      #expect(doubts.read(number < unknown ? "[-..-..-]" : "E", wordsPerMinute: 15) == nil)
    }
    #expect(doubts.unknownCodes == unknown)
    #expect(!doubts.finish().isEmpty == isDoubtful)
  }

  /// At 15 WPM (a dot of 80 ms) a mark over 480 ms is neither a dot nor a dash: three of
  /// them, over a tenth of the marks, are doubtful at the end.
  @Test(arguments: [(3, 30, false), (3, 29, true), (2, 5, false), (5, 20, true)])
  func manyMarksOfNeitherLengthAreDoubtfulAtTheEnd(long: Int, of marks: Int, isDoubtful: Bool) {
    var doubts = ReadDoubts(speeds: 1...60)
    for number in 0..<marks {
      doubts.mark(lasting: number < long ? 0.5 : 0.24, wordsPerMinute: 15)
    }
    #expect(doubts.longMarks == long)
    #expect(doubts.finish() == (isDoubtful ? [.longMarks(long, of: marks)] : []))
  }

  /// Through a reading: marks held for 1 s among dots and dashes at 15 WPM.
  @Test func marksHeldTooLongInAReadingAreDoubtful() throws {
    var reading = MorseReading(receiver: MorseReceiver())
    var time = MonotonicInstant.origin
    var events: [MorseReading.Event] = []
    for mark in [0.08, 0.24, 0.08, 1.0, 0.08, 0.24, 1.0, 0.24, 0.08, 1.0, 0.08, 0.24] {
      reading.read(.edge(MorseEdge(time: time, isOn: true))) { events.append($0) }
      time += .seconds(mark)
      reading.read(.edge(MorseEdge(time: time, isOn: false))) { events.append($0) }
      time += .milliseconds(240)
    }
    events += reading.finish()
    #expect(events.contains(.doubt(.longMarks(3, of: 12))), "\(events)")
  }
}
