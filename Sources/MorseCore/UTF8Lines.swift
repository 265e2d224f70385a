/// Strict UTF-8 decoding of input lines.
public enum UTF8Lines {
  /// Decodes one line of bytes as strict UTF-8; throws `MorseError.invalidUTF8(line:column:byte:)`
  /// naming the first bad byte; column is the 1-based character column where it sits.
  ///
  /// Strict means the Unicode Standard's table 3-7: overlong forms (C0, C1, E0 80…, F0 80…),
  /// UTF-16 surrogates (ED A0…), values above U+10FFFF (F4 90…, F5…FF), stray continuation
  /// bytes and cut-off sequences are all refused. The byte named is the first byte of the
  /// sequence that cannot be decoded (as Python reports it). A line break inside the bytes is
  /// kept; the line number is the caller's.
  public static func decode(
    _ bytes: some Collection<UInt8>, line: Int, firstColumn: Int = 1
  ) throws(MorseError) -> String {
    let result: Result<String, MorseError> =
      bytes.withContiguousStorageIfAvailable { decode($0, line: line, firstColumn: firstColumn) }
      ?? Array(bytes).withUnsafeBufferPointer { decode($0, line: line, firstColumn: firstColumn) }
    return try result.get()
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

  /// Validates, then decodes, contiguous bytes.
  private static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, line: Int, firstColumn: Int
  ) -> Result<String, MorseError> {
    if let offset = firstInvalidOffset(in: bytes) {
      let prefix = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<offset]), as: UTF8.self)
      return .failure(
        .invalidUTF8(line: line, column: firstColumn + prefix.count, byte: bytes[offset]))
    }
    return .success(String(decoding: bytes, as: UTF8.self))
  }

  /// The offset of the first byte of the first ill-formed sequence, or nil if all is well.
  static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    while index < bytes.count {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      // Allowed range of the second byte and the sequence length, per Unicode table 3-7.
      let length: Int
      var secondRange: ClosedRange<UInt8> = 0x80...0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        secondRange = 0xA0...0xBF
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        secondRange = 0x80...0x9F
      case 0xF0:
        length = 4
        secondRange = 0x90...0xBF
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        secondRange = 0x80...0x8F
      default: return index
      }
      guard index + 1 < bytes.count, secondRange.contains(bytes[index + 1]) else { return index }
      for offset in 2..<length {
        guard index + offset < bytes.count, (0x80...0xBF).contains(bytes[index + offset]) else {
          return index
        }
      }
      index += length
    }
    return nil
  }
}
