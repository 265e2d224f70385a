/// Strict UTF-8 decoding of input lines.
public enum UTF8Lines {
  /// Decodes one line of bytes as strict UTF-8; throws `MorseError.invalidUTF8(line:column:byte:)`
  /// naming the first bad byte; column is the 1-based character column where it sits.
  ///
  /// Strict means the Unicode Standard's table 3-7, as the standard library validates it
  /// (`String(validating:as:)`, `Unicode.UTF8.ForwardParser`): overlong forms (C0, C1, E0 80…,
  /// F0 80…), UTF-16 surrogates (ED A0…), values above U+10FFFF (F4 90…, F5…FF), stray
  /// continuation bytes and cut-off sequences are all refused. The byte named is the first byte
  /// of the sequence that cannot be decoded (as Python reports it). A line break inside the
  /// bytes is kept; the line number is the caller's.
  public static func decode(
    _ bytes: some Collection<UInt8>, line: Int, firstColumn: Int = 1
  ) throws(MorseError) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text }
    // Refused: the same validation again, a scalar at a time, finds where.
    guard let offset = firstInvalidOffset(in: bytes) else {
      return String(decoding: bytes, as: UTF8.self)
    }
    let bad = bytes.index(bytes.startIndex, offsetBy: offset)
    let column = firstColumn + String(decoding: bytes[..<bad], as: UTF8.self).count
    throw .invalidUTF8(line: line, column: column, byte: bytes[bad])
  }

  /// The UTF-8 byte-order mark (U+FEFF), which some editors put at the start of a file.
  public static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// `bytes` without a byte-order mark at the start: at the start of input it only says
  /// "this is UTF-8", and is not text to send.
  public static func droppingByteOrderMark<Bytes: Collection<UInt8>>(_ bytes: Bytes)
    -> Bytes.SubSequence
  {
    bytes.starts(with: byteOrderMark) ? bytes.dropFirst(3) : bytes[...]
  }

  /// Decodes one line of bytes, each ill-formed sequence replaced by U+FFFD (which is then
  /// skipped, with a warning naming it, as a character without a signal).
  public static func repairing(_ bytes: some Collection<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self)
  }

  /// The offset of the first byte of the first ill-formed sequence, or nil if all is well.
  static func firstInvalidOffset(in bytes: some Sequence<UInt8>) -> Int? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }
}
