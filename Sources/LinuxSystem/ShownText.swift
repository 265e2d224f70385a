/// Text from outside (a path, a device's name, an environment variable, another user's
/// record) as a message quotes it: every character that could act on a terminal or start a
/// line of its own is shown instead.
///
/// Here, the lowest layer that words messages, so that every error's description quotes what
/// it names the same way (`"cannot open \(shown: path)"`), and the tool's console can show
/// what is left (`Console.styled`).
public enum ShownText {
  /// `text` with controls, DEL, C1 controls and invisible formatting (bidi overrides, line
  /// and paragraph separators) shown as `\n`, `\t`, `\u{1B}`…, and backslashes doubled; cut
  /// to `limit` characters with "…". With `keepingLineBreaks`, a line feed stays one (for a
  /// whole message whose own lines are its advice) and a backslash stays single.
  public static func escaped(
    _ text: String, limit: Int = 200, keepingLineBreaks: Bool = false
  ) -> String {
    guard text.unicodeScalars.contains(where: { needsEscaping($0, keepingLineBreaks) })
      || text.unicodeScalars.count > limit
    else { return text }
    var result = ""
    for (count, scalar) in text.unicodeScalars.enumerated() {
      if count >= limit {
        result += "…"
        break
      }
      guard needsEscaping(scalar, keepingLineBreaks) else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      case "\\": result += "\\\\"
      default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return result
  }

  private static func needsEscaping(_ scalar: Unicode.Scalar, _ keepingLineBreaks: Bool) -> Bool
  {
    if scalar == "\n" || scalar == "\\" { return !keepingLineBreaks }
    if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned: return true
    default: return false
    }
  }
}

extension DefaultStringInterpolation {
  /// `text` as a message quotes something from outside (`ShownText.escaped`): a path, a name,
  /// a value; paths are long, so up to 1000 characters.
  public mutating func appendInterpolation(shown text: String) {
    appendLiteral(ShownText.escaped(text, limit: 1000))
  }
}
