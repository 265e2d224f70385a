/// Text that cannot be encoded, Morse that cannot be decoded, or input that is not UTF-8.
public enum MorseError: Error, Hashable, CustomStringConvertible {
  /// A character with no Morse signal (with the default policy, which rejects it).
  case unsendable(UnsendableCharacter)
  /// A group of dots and dashes (or other characters) with no meaning; the position is its
  /// first character.
  case unknownCode(String, line: Int, column: Int)
  /// A byte that is not valid UTF-8 (or starts an invalid sequence) at a character column.
  case invalidUTF8(line: Int, column: Int, byte: UInt8)

  /// What is wrong, where, and how to fix it, for a person.
  public var description: String {
    switch self {
    case .unsendable(let character):
      return "\(character) has no Morse code"
    case .unknownCode(let code, let line, let column):
      // (A code of over 40 characters is quoted cut, with "…" after its first 40.)
      let quoted = code.count == 41 && code.hasSuffix("…") ? code.dropLast() : code[...]
      if let stray = quoted.first(where: { $0 != "." && $0 != "-" }) {
        let shown = UnsendableCharacter.describe(stray)
        return "\"\(code)\" at line \(line), column \(column) contains \(shown), which is not a "
          + "Morse element; write codes with '.' and '-' only, letters separated by a space "
          + "and words by ' / '"
      }
      return "\"\(code)\" at line \(line), column \(column) is not a Morse code for any "
        + "character or prosign; check the dots and dashes, and put a space between letters"
    case .invalidUTF8(let line, let column, let byte):
      let hex = String(byte, radix: 16, uppercase: true)
      return "byte 0x\(hex.count == 1 ? "0" + hex : hex) at line \(line), column \(column) is "
        + "not valid UTF-8; convert the input to UTF-8"
    }
  }
}
