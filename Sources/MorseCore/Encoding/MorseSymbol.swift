/// One signal to send: a character, a prosign, or one part of an ITU substitution.
public struct MorseSymbol: Sendable, Hashable {
  /// What the user wrote: "S", "<SK>", "%", "×".
  public let text: String
  /// What is sent.
  public let code: MorseCode

  /// A symbol sending `code` on behalf of `text`.
  public init(text: String, code: MorseCode) {
    self.text = text
    self.code = code
  }
}
