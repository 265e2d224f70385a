/// One item of a message: a signal, or the gap between two words.
public enum MorseToken: Sendable, Hashable {
  /// A signal, followed by a letter gap if another symbol comes next.
  case symbol(MorseSymbol)
  /// The gap between two words (whitespace in the text).
  case wordGap
}
