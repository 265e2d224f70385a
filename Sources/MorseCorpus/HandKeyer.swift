import Instants
import MorseCore

/// How one sender keys, in units of the sender's own dot: the dash, the three gaps, and how
/// far each length strays. `Fist()` is ITU timing to the microsecond.
public struct Fist: Sendable, Hashable {
  /// The dash, in dots (ITU: 3).
  public var dashUnits = 3.0
  /// The gap between the elements of a character (ITU: 1).
  public var elementGapUnits = 1.0
  /// The gap between the characters of a word (ITU: 3).
  public var letterGapUnits = 3.0
  /// The gap between words (ITU: 7).
  public var wordGapUnits = 7.0
  /// Every mark and gap is off by up to this share of its length, uniformly (0.15: ±15 %).
  public var jitter = 0.0

  /// ITU timing, no jitter.
  public init() {}

  /// The nominal length of `kind`, in units.
  public func units(of kind: KeyedPiece.Kind) -> Double {
    switch kind {
    case .dot: 1
    case .dash: dashUnits
    case .elementGap: elementGapUnits
    case .letterGap: letterGapUnits
    case .wordGap: wordGapUnits
    }
  }
}

/// How a sender's speed changes across a message (by the share of its marks and gaps sent).
public enum SpeedProfile: Sendable, Hashable {
  /// The same speed throughout, in words per minute.
  case steady(Double)
  /// From one speed to the other, evenly.
  case drifting(from: Double, to: Double)
  /// The first speed for the first half, the second after.
  case jumping(from: Double, to: Double)

  /// The speed the sender starts at: what a receiver would be told.
  public var nominal: Double {
    switch self {
    case .steady(let wpm): wpm
    case .drifting(let from, _), .jumping(let from, _): from
    }
  }

  /// The speed at `fraction` (0 to 1) of the message.
  public func wordsPerMinute(at fraction: Double) -> Double {
    switch self {
    case .steady(let wpm): wpm
    case .drifting(let from, let to): from + (to - from) * fraction
    case .jumping(let from, let to): fraction < 0.5 ? from : to
    }
  }
}

/// One mark or gap as keyed, before any channel noise.
public struct KeyedPiece: Sendable, Hashable {
  /// What it is.
  public enum Kind: Sendable, Hashable, CaseIterable {
    case dot, dash, elementGap, letterGap, wordGap
  }

  /// What it is.
  public let kind: Kind
  /// When it starts (to the microsecond).
  public let start: MonotonicInstant
  /// How long it lasts (microseconds).
  public let length: Duration
  /// The sender's dot where it was keyed (the unit its nominal length is counted in).
  public let unit: Duration

  /// Whether the key is down: a dot or a dash.
  public var isMark: Bool { kind == .dot || kind == .dash }
  /// When it ends.
  public var end: MonotonicInstant { start + length }
}

/// Keys `text` (characters with a Morse code, words split by spaces) as `fist` does at
/// `speed`, from `start`: every mark and gap in order, its length the nominal units of `fist`
/// at the speed of that point of the message, off by up to `fist.jitter`, every boundary
/// rounded to the microsecond. Characters without a code are left out.
public func keyPieces(
  _ text: String, fist: Fist, speed: SpeedProfile, start: MonotonicInstant = .origin + .seconds(1),
  random: inout SplitMix64
) -> [KeyedPiece] {
  var kinds: [KeyedPiece.Kind] = []
  for (wordIndex, word) in text.split(separator: " ").enumerated() {
    let codes = word.compactMap { MorseAlphabet.code(for: $0) }
    for (codeIndex, code) in codes.enumerated() {
      if codeIndex > 0 {
        kinds.append(.letterGap)
      } else if wordIndex > 0 {
        kinds.append(.wordGap)
      }
      for (elementIndex, element) in code.elements.enumerated() {
        if elementIndex > 0 { kinds.append(.elementGap) }
        kinds.append(element == .dot ? .dot : .dash)
      }
    }
  }
  var pieces: [KeyedPiece] = []
  var seconds = Double(start.sinceOrigin / .microseconds(1)).rounded() / 1e6
  for (index, kind) in kinds.enumerated() {
    let unit = 1.2 / speed.wordsPerMinute(at: Double(index) / Double(max(kinds.count, 1)))
    let scale = fist.jitter > 0 ? Double.random(in: -fist.jitter...fist.jitter, using: &random) : 0
    let end = seconds + unit * fist.units(of: kind) * (1 + scale)
    let from = microseconds(seconds)
    pieces.append(
      KeyedPiece(
        kind: kind, start: .origin + from, length: microseconds(end) - from, unit: .seconds(unit)))
    seconds = end
  }
  return pieces
}

/// `seconds` rounded to the microsecond.
func microseconds(_ seconds: Double) -> Duration {
  .microseconds(Int64((seconds * 1e6).rounded()))
}
