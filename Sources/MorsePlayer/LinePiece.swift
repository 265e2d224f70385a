/// A line of input, or a piece of one too long to wait for whole.
public struct LinePiece: Sendable, Hashable {
  /// The bytes, without the newline.
  public let bytes: [UInt8]
  /// Whether it continues the line of the piece before it (rather than starting a new line).
  public let continuesLine: Bool
  /// Whether the line ends with it (rather than going on in the next piece, perhaps in the
  /// middle of a word: a piece is cut at a character boundary when it has no space).
  public let endsLine: Bool

  /// Whether the line goes on in the next piece inside a word: the piece was cut where the
  /// limit fell, with no space or tab on either side of the cut, so the next piece begins
  /// with the rest of the word (and follows it after a letter gap, not a word gap).
  public let breaksWord: Bool

  /// A piece of `bytes`, continuing the line before it or not, ending it or not (inside a
  /// word or not).
  public init(
    _ bytes: [UInt8], continuesLine: Bool = false, endsLine: Bool = true, breaksWord: Bool = false
  ) {
    self.bytes = bytes
    self.continuesLine = continuesLine
    self.endsLine = endsLine
    self.breaksWord = !endsLine && breaksWord
  }

  /// Whether `byte` separates words where a line is cut: a space or a tab.
  static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}
