/// A character that could not be sent, with where it was.
public struct UnsendableCharacter: Sendable, Hashable, CustomStringConvertible {
  /// The character as written (NFC).
  public let character: Character
  /// The 1-based line it is on.
  public let line: Int
  /// The 1-based column, counted in characters, within its line.
  public let column: Int

  /// A character at a position.
  public init(character: Character, line: Int, column: Int) {
    self.character = character
    self.line = line
    self.column = column
  }

  /// Like "'ä' (U+00E4) at line 1, column 5".
  public var description: String {
    "\(Self.describe(character)) at line \(line), column \(column)"
  }

  /// Like "'ä' (U+00E4)", or "an invisible character (U+0007)" for controls and the like.
  static func describe(_ character: Character) -> String {
    // At most 8 scalars are named and shown: one character may carry a million marks.
    let count = character.unicodeScalars.count
    var scalars = character.unicodeScalars.prefix(8).map { scalar in
      let hex = String(scalar.value, radix: 16, uppercase: true)
      return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
    if count > 8 { scalars.append("and \(count - 8) more") }
    let isVisible = character.unicodeScalars.allSatisfy { scalar in
      switch scalar.properties.generalCategory {
      case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator,
        .paragraphSeparator, .spaceSeparator:
        return false
      default:
        return true
      }
    }
    if character == "\u{FFFD}" {
      return "bytes that are not UTF-8 (U+FFFD)"
    }
    let visible =
      count > 8
      ? String(String.UnicodeScalarView(character.unicodeScalars.prefix(8))) + "…"
      : String(character)
    let shown = isVisible ? "'\(visible)'" : "an invisible character"
    return "\(shown) (\(scalars.joined(separator: " ")))"
  }
}
