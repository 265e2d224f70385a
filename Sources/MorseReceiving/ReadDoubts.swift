/// What makes a reading's text doubtful, found as the reading goes: each doubt given once,
/// when it is first known, so that the tool can say it and what to try.
///
/// A reading that looks right can be wrong in ways the receivers cannot tell from inside:
/// a speed found at the edge of the range they follow (a dash taken for a dot, or noise for
/// Morse), a "light" that is the corner or the whole of the picture, codes that mean
/// nothing. Values only; the tool words them.
public struct ReadDoubts: Sendable, Hashable {
  /// One reason to doubt what was read.
  public enum Doubt: Sendable, Hashable {
    /// Characters were read at this speed, at the slow end of the range or below it.
    case slowSpeed(wordsPerMinute: Double)
    /// Characters were read at this speed, at the fast end of the range or above it.
    case fastSpeed(wordsPerMinute: Double)
    /// The light was found here, against the picture's edge (often not a light at all).
    case lightAtEdge(LightRegion)
    /// The light found is most of the picture (the room's light, or the exposure changing).
    case wholePicture(LightRegion)
    /// This many of the characters read were codes with no meaning (`[......]`).
    case unknownCodes(Int, of: Int)
    /// This many of the marks read were over `longMark` dots long at the speed followed:
    /// marks of more than two lengths (a light left on, marks run together, a speed misread).
    case longMarks(Int, of: Int)
  }

  /// A doubt's kind: what is said once.
  private enum Kind: Hashable {
    case speed, place, codes, marks
  }

  /// How far into the edge of the receiver's range a speed is doubtful: within a quarter of
  /// the slowest, within a fifth of the fastest (60 WPM: from 50).
  static let slowMargin = 1.25
  static let fastMargin = 1.2
  /// At least this many codes with no meaning, and over a quarter of the characters.
  static let fewestUnknownCodes = 3
  /// A mark over this many dots is neither a dot nor a dash (a dash is three); at least
  /// `fewestUnknownCodes` of them, and over a tenth of the marks, are doubtful.
  public static let longMark = 6.0

  /// The speeds the receiver follows.
  public let speeds: ClosedRange<Double>
  /// Characters read (unknown codes and prosigns included).
  public private(set) var characters = 0
  /// Codes with no meaning read.
  public private(set) var unknownCodes = 0
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

  /// The light found (or moved) to `region` in a picture `width` by `height`: a doubt about
  /// where it is, the first time.
  public mutating func found(_ region: LightRegion, width: Int, height: Int) -> Doubt? {
    if region.width * region.height * 2 > width * height {
      return say(.place, .wholePicture(region))
    }
    if region.x <= 0 || region.y <= 0 || region.x + region.width >= width
      || region.y + region.height >= height
    {
      return say(.place, .lightAtEdge(region))
    }
    return nil
  }

  /// What can be known only at the end: many codes with no meaning (at least three, over a
  /// quarter of the characters); many marks of neither length (at least three, over a tenth
  /// of the marks).
  public mutating func finish() -> [Doubt] {
    var doubts: [Doubt] = []
    if unknownCodes >= Self.fewestUnknownCodes, unknownCodes * 4 > characters,
      let doubt = say(.codes, .unknownCodes(unknownCodes, of: characters))
    {
      doubts.append(doubt)
    }
    if longMarks >= Self.fewestUnknownCodes, longMarks * 10 > marks,
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
