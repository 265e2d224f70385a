/// `CHIP:LINE` as the user wrote it: the chip by name (`gpiochip0`), path (`/dev/gpiochip0`)
/// or label, and the line by offset (`17`) or name (`GPIO17`).
public struct GPIOLineAddress: Sendable, Hashable, CustomStringConvertible {
  /// The chip as written.
  public let chip: String
  /// The line as written.
  public let line: String

  /// Splits `text` at its last `:` (a chip's label may have one; a line name rarely does).
  public init(_ text: String) throws(GPIOError) {
    guard let colon = text.lastIndex(of: ":") else { throw .invalidAddress(text) }
    chip = String(text[..<colon])
    line = String(text[text.index(after: colon)...])
    guard !chip.isEmpty, !line.isEmpty, !chip.contains("\0"), !line.contains("\0") else {
      throw .invalidAddress(text)
    }
  }

  /// `CHIP:LINE`.
  public var description: String { "\(chip):\(line)" }

  /// The line's offset, when it is written as one: decimal digits only (`+5` is a name).
  var offset: Int? {
    guard line.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return Int(line)
  }
}
