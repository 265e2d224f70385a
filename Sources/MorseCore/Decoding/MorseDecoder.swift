/// Turns dots and dashes back into text.
public enum MorseDecoder {
  /// Decodes "... --- ..." to "SOS".
  ///
  /// Codes are separated by whitespace; words by "/" (with or without spaces around it), by 3
  /// or more whitespace characters, or by a line break. Several separators in a row make one
  /// word gap; leading and trailing ones are ignored. The output is uppercase; a code without
  /// a character decodes to its prosign name ("...-.-" to "<SK>"). Throws
  /// `MorseError.unknownCode` with the code and its line and column for a code with no meaning
  /// or with a character other than "." and "-" in it.
  ///
  /// With `alphabet`, letters are read in that script (`...` is С in Cyrillic, Σ in Greek);
  /// codes it has no letter for (figures, punctuation, prosigns) read as usual.
  public static func decode(
    _ text: String, line: Int = 1, alphabet: NationalAlphabet = .latin
  ) throws(MorseError) -> String {
    var firstUnknown: MorseError?
    let output = decode(text, line: line, alphabet: alphabet) { unknown in
      if firstUnknown == nil { firstUnknown = unknown }
    }
    if let firstUnknown { throw firstUnknown }
    return output
  }

  /// Decodes all of `text`, an unknown code shown as `receive` shows it (`[......]`, see
  /// `MorseCode.shownUnknown`), each one also given to `unknown` as the error naming it.
  public static func decode(
    _ text: String, line: Int = 1, alphabet: NationalAlphabet = .latin,
    unknown: (MorseError) -> Void
  ) -> String {
    var output = ""
    var currentLine = line
    var column = 1
    var code = ""
    var codeColumn = 0
    var whitespaceRun = 0
    var isWordGapPending = false

    func finishCode() {
      guard !code.isEmpty else { return }
      var decoded = MorseCode.shownUnknown(code)
      if let morse = MorseCode(code), let text = MorseAlphabet.text(for: morse, alphabet: alphabet)
      {
        decoded = text
      } else {
        // Quoted in the message: at most 40 characters of it, whatever the input.
        let shown = code.count > 40 ? String(code.prefix(40)) + "…" : code
        unknown(.unknownCode(shown, line: currentLine, column: codeColumn))
      }
      if isWordGapPending && !output.isEmpty { output += " " }
      isWordGapPending = false
      output += decoded
      code = ""
    }

    for character in text {
      if character.isWhitespace {
        finishCode()
        whitespaceRun += 1
        // "\n" and "\r\n" end a line, as in the line reader; a lone "\r" is whitespace.
        if character == "\n" || character == "\r\n" {
          isWordGapPending = true
          currentLine += 1
          column = 1
          continue
        }
        if whitespaceRun >= 3 { isWordGapPending = true }
      } else if character == "/" {
        finishCode()
        whitespaceRun = 0
        isWordGapPending = true
      } else {
        whitespaceRun = 0
        if code.isEmpty { codeColumn = column }
        code.append(character)
      }
      column += 1
    }
    finishCode()
    return output
  }
}
