import Instants
import MorseCore
import MorseTestSupport
import Testing

@testable import MorseReceiving

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
    for _ in 0..<3 { _ = doubts.read("[......]", wordsPerMinute: 15) }
    #expect(doubts.finish() == [.unsure(3, of: 5)])
    #expect(doubts.finish().isEmpty)
  }

  @Test(arguments: [(3, 12, false), (3, 11, true), (1, 4, false), (1, 3, true), (0, 0, false)])
  func manyCodesWithNoMeaningAreDoubtfulAtTheEnd(unknown: Int, of characters: Int, isDoubtful: Bool) {
    var doubts = ReadDoubts(speeds: 1...60)
    for number in 0..<characters {
      #expect(doubts.read(number < unknown ? "[-..-..-]" : "E", wordsPerMinute: 15) == nil)
    }
    #expect(doubts.unknownCodes == unknown)
    #expect(!doubts.finish().isEmpty == isDoubtful)
  }

  /// The receiver's count of unsure characters (the model's margin), when it is more than
  /// the codes with no meaning, is what is weighed.
  @Test(arguments: [(3, 12, false), (3, 11, true), (1, 4, false), (1, 1, true), (9, 20, true)])
  func manyUnsureCharactersAreDoubtfulAtTheEnd(unsure: Int, of characters: Int, isDoubtful: Bool) {
    var doubts = ReadDoubts(speeds: 1...60)
    for _ in 0..<characters { _ = doubts.read("E", wordsPerMinute: 15) }
    doubts.unsureCharacters = unsure
    #expect(doubts.finish() == (isDoubtful ? [.unsure(unsure, of: characters)] : []))
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
