import Instants

extension MorseReceiver {
  /// A mark or a gap as the receiver classed it, with its times: what a trace of a reading
  /// draws. The first marks are classed late (kept until the speed is known), so the times
  /// are carried here rather than taken from when it is given.
  public struct Classed: Sendable, Hashable {
    /// What it was read as.
    public enum Kind: Sendable, Hashable, CaseIterable {
      /// A short mark.
      case dot
      /// A long mark.
      case dash
      /// A gap inside a character.
      case elementGap
      /// A gap between characters.
      case letterGap
      /// A gap between words.
      case wordGap
      /// A silence long enough to end the line (until it was said; the speed is found anew).
      case lineBreak

      /// Whether it is a mark (light on, key down).
      public var isMark: Bool { self == .dot || self == .dash }
    }

    /// What it was read as.
    public let kind: Kind
    /// When it began.
    public let start: MonotonicInstant
    /// When it ended.
    public let end: MonotonicInstant
    /// The speed the receiver followed once it was classed, in words per minute.
    public let wordsPerMinute: Double

    /// A `kind` from `start` to `end`, classed at `wordsPerMinute`.
    public init(
      _ kind: Kind, from start: MonotonicInstant, to end: MonotonicInstant, wordsPerMinute: Double
    ) {
      self.kind = kind
      self.start = start
      self.end = end
      self.wordsPerMinute = wordsPerMinute
    }
  }

  /// The marks and gaps read since this was last called, oldest first: as the reading by the
  /// sender's own timing classed them.
  public mutating func takeClassed() -> [Classed] {
    defer { classed = [] }
    return classed
  }

  /// The most kept until taken: a receiver whose user never takes them keeps the last ones
  /// only (`MorseReading` takes them at every input).
  static let mostClassedKept = 1024

  /// Keeps `kind` from `start` to `end`, at the speed followed now.
  mutating func record(_ kind: Classed.Kind, from start: MonotonicInstant, to end: MonotonicInstant)
  {
    followed.append(Classed(kind, from: start, to: end, wordsPerMinute: wordsPerMinute))
  }
}
