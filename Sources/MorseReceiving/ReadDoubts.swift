/// What makes a reading's text doubtful, found as the reading goes: each doubt given once,
/// when it is first known, so that the tool can say it and what to try.
///
/// A reading that looks right can be wrong: a speed found at the edge of the range the
/// receiver follows (a dash taken for a dot, or noise for Morse); characters the reading by
/// the sender's own timing was unsure of (another reading nearly as likely: the model's own
/// margin, `MorseReceiver.unsureCharacters`) or that mean nothing; marks of neither length.
/// Where a light was found says nothing of it: a narrow picture's light is at its edge, and a
/// screen flashed whole fills it. Values only; the tool words them.
public struct ReadDoubts: Sendable, Hashable {
  /// One reason to doubt what was read.
  public enum Doubt: Sendable, Hashable {
    /// Characters were read at this speed, at the slow end of the range or below it.
    case slowSpeed(wordsPerMinute: Double)
    /// Characters were read at this speed, at the fast end of the range or above it.
    case fastSpeed(wordsPerMinute: Double)
    /// This many of the characters read were unsure: another reading of them nearly as
    /// likely, or no meaning (`[......]`).
    case unsure(Int, of: Int)
    /// This many of the marks read were over `longMark` dots long at the speed followed:
    /// marks of more than two lengths (a light left on, marks run together, a speed misread).
    case longMarks(Int, of: Int)
  }

  /// A doubt's kind: what is said once.
  private enum Kind: Hashable {
    case speed, unsure, marks
  }

  /// How far into the edge of the receiver's range a speed is doubtful: within a quarter of
  /// the slowest, within a fifth of the fastest (60 WPM: from 50).
  static let slowMargin = 1.25
  static let fastMargin = 1.2
  /// At least this many marks of neither length are doubtful (and over a tenth of them).
  static let fewestLongMarks = 3
  /// A mark over this many dots is neither a dot nor a dash (a dash is three); at least
  /// `fewestLongMarks` of them, and over a tenth of the marks, are doubtful.
  public static let longMark = 6.0

  /// The speeds the receiver follows.
  public let speeds: ClosedRange<Double>
  /// Characters read (unknown codes and prosigns included).
  public private(set) var characters = 0
  /// Codes with no meaning read.
  public private(set) var unknownCodes = 0
  /// Characters the reading by the sender's own timing was unsure of (meaning or not), as
  /// the receiver counts them.
  public var unsureCharacters = 0
  /// Marks read, and those over `longMark` dots.
  public private(set) var marks = 0
  public private(set) var longMarks = 0
  private var said: Set<Kind> = []

  /// Doubts about a reading whose receiver follows `speeds` (words per minute).
  public init(speeds: ClosedRange<Double>) {
    self.speeds = speeds
  }

  /// A character (`text`) read at `wordsPerMinute`: a doubt about the speed, the first time.
  public mutating func read(_ text: String, wordsPerMinute: Double) -> Doubt? {
    characters += 1
    if text.hasPrefix("[") { unknownCodes += 1 }
    if wordsPerMinute <= speeds.lowerBound * Self.slowMargin {
      return say(.speed, .slowSpeed(wordsPerMinute: wordsPerMinute))
    }
    if wordsPerMinute >= speeds.upperBound / Self.fastMargin {
      return say(.speed, .fastSpeed(wordsPerMinute: wordsPerMinute))
    }
    return nil
  }

  /// A mark read, lasting `seconds` at `wordsPerMinute`.
  public mutating func mark(lasting seconds: Double, wordsPerMinute: Double) {
    marks += 1
    if seconds > Self.longMark * 1.2 / wordsPerMinute { longMarks += 1 }
  }

  /// What can be known only at the end: unsure characters, over a quarter of those read
  /// (codes with no meaning, or as the receiver counts them if more: Morse read right is
  /// sure of nearly every character, a light switched at random of few); many marks of
  /// neither length (at least three, over a tenth of the marks).
  public mutating func finish() -> [Doubt] {
    var doubts: [Doubt] = []
    let unsure = max(unknownCodes, unsureCharacters)
    if unsure > 0, unsure * 4 > characters,
      let doubt = say(.unsure, .unsure(unsure, of: characters))
    {
      doubts.append(doubt)
    }
    if longMarks >= Self.fewestLongMarks, longMarks * 10 > marks,
      let doubt = say(.marks, .longMarks(longMarks, of: marks))
    {
      doubts.append(doubt)
    }
    return doubts
  }

  /// Whether any doubt was given.
  public var isDoubtful: Bool { !said.isEmpty }

  /// `doubt`, unless one of its `kind` was given already.
  private mutating func say(_ kind: Kind, _ doubt: Doubt) -> Doubt? {
    said.insert(kind).inserted ? doubt : nil
  }
}
