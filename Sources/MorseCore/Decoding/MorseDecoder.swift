/// Turns dots and dashes back into text.
public enum MorseDecoder {
  /// Decodes "... --- ..." to "SOS".
  ///
  /// Codes are separated by whitespace; words by "/" (with or without spaces around it), by 3
  /// or more whitespace characters, or by a line break. Several separators in a row make one
  /// word gap; leading and trailing ones are ignored. The output is uppercase; a code without
  /// a character decodes to its prosign name ("...-.-" to "<SK>"). Throws
  /// `MorseError.unknownCode` with the code and its line and column for a code with no meaning
  /// or with a character other than "." and "-" in it (or the dots and dashes of pasted text:
  /// `element(_:)`).
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

  /// The dots and dashes people paste from the web (`·−·`, `._.`, `•–•`) as `.` and `-`; any
  /// other character as it is.
  static func element(_ character: Character) -> Character {
    switch character {
    case "·", "•", "∙", "⋅", "‧", "●": "."
    case "−", "–", "—", "‒", "_", "‐", "‑", "▬": "-"
    default: character
    }
  }

  /// Decodes all of `text`, an unknown code shown as `receive` shows it (`[......]`, see
  /// `MorseCode.shownUnknown`), each one also given to `unknown` as the error naming it.
  public static func decode(
    _ text: String, line: Int = 1, alphabet: NationalAlphabet = .latin,
    unknown: (MorseError) -> Void
  ) -> String {
    var stream = Stream(line: line, alphabet: alphabet)
    return stream.decode(text, unknown: unknown) + stream.finish(unknown: unknown)
  }

  /// Decodes a text given in pieces (a long line read a piece at a time), as `decode` would
  /// decode the whole: a code or a word gap cut between two pieces is read as one.
  public struct Stream {
    private let alphabet: NationalAlphabet
    private var currentLine: Int
    private var column = 1
    private var code = ""
    private var codeColumn = 0
    private var whitespaceRun = 0
    private var isWordGapPending = false
    private var hasOutput = false

    /// A stream whose text starts at line `line`.
    public init(line: Int = 1, alphabet: NationalAlphabet = .latin) {
      currentLine = line
      self.alphabet = alphabet
    }

    /// Decodes the next piece; a code at its very end waits for the next piece or `finish`.
    public mutating func decode(_ text: String, unknown: (MorseError) -> Void) -> String {
      var output = ""
      for character in text {
        if character.isWhitespace {
          finishCode(into: &output, unknown: unknown)
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
          finishCode(into: &output, unknown: unknown)
          whitespaceRun = 0
          isWordGapPending = true
        } else {
          whitespaceRun = 0
          if code.isEmpty { codeColumn = column }
          code.append(MorseDecoder.element(character))
        }
        column += 1
      }
      return output
    }

    /// The code the text ended with, decoded.
    public mutating func finish(unknown: (MorseError) -> Void) -> String {
      var output = ""
      finishCode(into: &output, unknown: unknown)
      return output
    }

    private mutating func finishCode(into output: inout String, unknown: (MorseError) -> Void) {
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
      if isWordGapPending && hasOutput { output += " " }
      isWordGapPending = false
      output += decoded
      hasOutput = true
      code = ""
    }
  }
}
