/// One Morse element.
public enum MorseElement: Sendable, Hashable {
  /// The short signal, one unit long.
  case dot
  /// The long signal, three units long.
  case dash
}
