/// A line of input, or a piece of one too long to wait for whole.
public struct LinePiece: Sendable, Hashable {
  /// The bytes, without the newline.
  public let bytes: [UInt8]
  /// Whether it continues the line of the piece before it (rather than starting a new line).
  public let continuesLine: Bool

  /// A piece of `bytes`, continuing the line before it or not.
  public init(_ bytes: [UInt8], continuesLine: Bool = false) {
    self.bytes = bytes
    self.continuesLine = continuesLine
  }
}
