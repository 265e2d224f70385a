/// What to do with a character that has no Morse signal.
public enum UnknownCharacterPolicy: Sendable {
  /// Refuse the whole text (the default): nothing is sent.
  case reject
  /// Drop the character and report it in `MorseMessage.skipped`.
  case skip
}
