/// One timed step of a transmission: the light on or off for a while.
public struct MorseStep: Sendable, Hashable {
  /// What a step stands for in the Morse code.
  public enum Kind: Sendable, Hashable {
    /// A dot: on for one unit.
    case dot
    /// A dash: on for three units.
    case dash
    /// The gap between two elements of one character: off for one unit.
    case elementGap
    /// The gap between two characters of a word.
    case letterGap
    /// The gap between two words.
    case wordGap
  }

  /// What this step is.
  public let kind: Kind
  /// How long the light stays in this state.
  public let duration: Duration
  /// The character (or prosign) being sent; for letter and word gaps, the one that follows.
  public let symbol: MorseSymbol

  /// A step of `kind`, `duration` long, for `symbol`.
  public init(kind: Kind, duration: Duration, symbol: MorseSymbol) {
    self.kind = kind
    self.duration = duration
    self.symbol = symbol
  }

  /// Whether the light is on during this step.
  public var isOn: Bool { kind == .dot || kind == .dash }
}
