// The Morse table of the Latin script (the Cyrillic and Greek ones are in
// Decoding/NationalAlphabet.swift; what else is sent as which signal is `substitutions` below).
//
// International set: ITU-R M.1677-1 (10/2009), Part I §1.1: letters A–Z and É, figures 0–9,
// and the punctuation `. , : ? ' - / ( ) " = + @`. Its §3 substitutions (× % ‰ ′ ″ and
// fractions) have no signal of their own and are spelled with other signals, see
// `MorseAlphabet.substitutions`.
//
// Extension set (not in ITU-R M.1677-1). Where operators disagree, the choice and why:
//
// | char | code     | note                                                                    |
// |------|----------|-------------------------------------------------------------------------|
// | !    | -.-.--   | "KW": the Heathkit / ARRL choice; American Morse used ---. instead       |
// | $    | ...-..-  | "SX", the common ARRL choice                                            |
// | &    | .-...    | "AS" (the ITU "wait" signal), as ARRL; decodes as <AS>                  |
// | ;    | -.-.-.   | the common choice                                                       |
// | _    | ..--.-   | the common choice                                                       |
// | Ä Æ  | .-.-     | German, Danish/Norwegian; decodes as Ä                                  |
// | À Å Á| .--.-    | French, Scandinavian, Spanish; decodes as À                             |
// | Ç Ĉ  | -.-..    | French, Esperanto; decodes as Ç                                         |
// | È    | .-..-    | French (Polish Ł uses the same code and is left out)                    |
// | Ñ    | --.--    | Spanish                                                                 |
// | Ö Ø  | ---.     | German, Danish/Norwegian; decodes as Ö                                  |
// | Ü Ŭ  | ..--     | German, Esperanto; decodes as Ü                                         |
// | Ð    | ..--.    | Icelandic                                                               |
// | Þ    | .--..    | Icelandic                                                               |
// | Ĝ    | --.-.    | Esperanto                                                               |
// | Ĥ    | ----     | Esperanto (German "CH" uses the same code)                              |
// | Ĵ    | .---.    | Esperanto                                                               |
// | Ŝ    | ...-.    | Esperanto; also the ITU "understood" signal, so it decodes as <VE>      |
// | ß    | ...--..  | German "SZ"; keyed lowercase because "ß".uppercased() is "SS"           |
//
// Decoding a shared code returns one documented text: an ITU character first, then an ITU
// procedural signal (`<VE>`, `<AS>`), then the first extension character in the order above,
// then another prosign name (`<AA>`).

/// The Morse alphabet: ITU-R M.1677-1, a documented extension set, substitutions and prosigns.
public enum MorseAlphabet {
  /// The ITU-R M.1677-1 characters with their codes, in the Recommendation's order.
  public static let internationalEntries: [(character: Character, code: MorseCode)] =
    characterTable([
      ("A", ".-"), ("B", "-..."), ("C", "-.-."), ("D", "-.."), ("E", "."), ("É", "..-.."),
      ("F", "..-."), ("G", "--."), ("H", "...."), ("I", ".."), ("J", ".---"), ("K", "-.-"),
      ("L", ".-.."), ("M", "--"), ("N", "-."), ("O", "---"), ("P", ".--."), ("Q", "--.-"),
      ("R", ".-."), ("S", "..."), ("T", "-"), ("U", "..-"), ("V", "...-"), ("W", ".--"),
      ("X", "-..-"), ("Y", "-.--"), ("Z", "--.."),
      ("1", ".----"), ("2", "..---"), ("3", "...--"), ("4", "....-"), ("5", "....."),
      ("6", "-...."), ("7", "--..."), ("8", "---.."), ("9", "----."), ("0", "-----"),
      (".", ".-.-.-"), (",", "--..--"), (":", "---..."), ("?", "..--.."), ("'", ".----."),
      ("-", "-....-"), ("/", "-..-."), ("(", "-.--."), (")", "-.--.-"), ("\"", ".-..-."),
      ("=", "-...-"), ("+", ".-.-."), ("@", ".--.-."),
    ])

  /// The extension characters (not ITU) with their codes; on a shared code the first decodes.
  public static let extendedEntries: [(character: Character, code: MorseCode)] = characterTable([
    ("!", "-.-.--"), ("$", "...-..-"), ("&", ".-..."), (";", "-.-.-."), ("_", "..--.-"),
    ("Ä", ".-.-"), ("Æ", ".-.-"), ("À", ".--.-"), ("Å", ".--.-"), ("Á", ".--.-"),
    ("Ç", "-.-.."), ("Ĉ", "-.-.."), ("È", ".-..-"), ("Ñ", "--.--"), ("Ö", "---."),
    ("Ø", "---."), ("Ü", "..--"), ("Ŭ", "..--"), ("Ð", "..--."), ("Þ", ".--.."),
    ("Ĝ", "--.-."), ("Ĥ", "----"), ("Ĵ", ".---."), ("Ŝ", "...-."), ("ß", "...--.."),
  ])

  /// Named prosigns (without brackets) in order of preference for decoding a shared code.
  public static let prosignEntries: [(name: String, code: MorseCode)] = prosignTable([
    ("SOS", "...---..."),  // distress
    ("SK", "...-.-"),  // end of work (ITU)
    ("AR", ".-.-."),  // end of message; same code as "+"
    ("BT", "-...-"),  // break / new paragraph; same code as "="
    ("KN", "-.--."),  // go ahead, named station only; same code as "("
    ("HH", "........"),  // error (ITU)
    ("AS", ".-..."),  // wait (ITU); same code as "&"
    ("KA", "-.-.-"),  // starting signal (ITU), also written CT
    ("CT", "-.-.-"),
    ("VE", "...-."),  // understood (ITU), also written SN; same code as "Ŝ"
    ("SN", "...-."),
    ("BK", "-...-.-"),  // break-in
    ("CL", "-.-..-.."),  // closing station
    ("AA", ".-.-"),  // new line; same code as "Ä"
    ("DO", "-..---"),  // switch to Wabun (Japanese) code
  ])

  /// ITU-R M.1677-1 characters to codes, uppercase keys.
  public static let international: [Character: MorseCode] = Dictionary(
    internationalEntries.map { ($0.character, $0.code) }, uniquingKeysWith: { first, _ in first })

  /// The documented non-ITU extension characters to codes, uppercase keys (ß lowercase).
  public static let extended: [Character: MorseCode] = Dictionary(
    extendedEntries.map { ($0.character, $0.code) }, uniquingKeysWith: { first, _ in first })

  /// Named prosigns, e.g. "SK", to their codes (the letters' codes run together).
  public static let prosigns: [String: MorseCode] = Dictionary(
    prosignEntries.map { ($0.name, $0.code) }, uniquingKeysWith: { first, _ in first })

  /// Characters without a signal, spelled with ITU characters (ITU-R M.1677-1 §3).
  ///
  /// ITU: × as X, ′ as ', ″ as '', % as 0/0, ‰ as 0/00, fractions with the fraction bar.
  /// Not ITU, for pasted text: typographic quotes as ' and ". Not ITU, so that every
  /// printable ASCII character (logs, shell output) can be sent, each by its role (`morsetorch
  /// alphabet` lists them): brackets of any shape as ( ), `*` as X (as ×), `#` as NR ("number"), bars
  /// and the backslash as /, `~` as -, `^` and the backtick as '. `<` and `>` are brackets
  /// only where they do not enclose a prosign (`<SK>`).
  public static let substitutions: [Character: String] = [
    "[": "(", "]": ")", "{": "(", "}": ")", "<": "(", ">": ")", "*": "X", "#": "NR",
    "|": "/", "\\": "/", "~": "-", "^": "'", "`": "'",
    "×": "X", "′": "'", "″": "''", "%": "0/0", "‰": "0/00",
    "¼": "1/4", "½": "1/2", "¾": "3/4", "⅐": "1/7", "⅑": "1/9", "⅒": "1/10", "⅓": "1/3",
    "⅔": "2/3", "⅕": "1/5", "⅖": "2/5", "⅗": "3/5", "⅘": "4/5", "⅙": "1/6", "⅚": "5/6",
    "⅛": "1/8", "⅜": "3/8", "⅝": "5/8", "⅞": "7/8",
    "\u{2018}": "'", "\u{2019}": "'", "\u{201C}": "\"", "\u{201D}": "\"",
    // Typography of pasted text and log lines: ellipsis, dashes and the minus sign, the
    // other quotation marks, the bullet as a hyphen.
    "…": "...", "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "―": "-", "−": "-",
    "«": "\"", "»": "\"", "„": "\"", "‟": "\"", "‹": "'", "›": "'", "‚": "'", "‛": "'",
    "Œ": "OE", "œ": "OE", "ı": "I",
    // The degree sign, as operators write it out: "20°C" is sent 20 DEG C.
    "°": " DEG ",
  ]

  /// The code of one character (case-insensitive, any Unicode normalization), or nil.
  ///
  /// Only characters with a signal of their own; see `substitution(for:)` for the rest.
  public static func code(for character: Character) -> MorseCode? {
    if let ascii = character.asciiValue {
      // "\r\n" reports an ASCII value of "\n", which has no code either.
      return asciiCode(ascii)
    }
    // Character equality and hashing use canonical equivalence, so "e" + U+0301 finds É.
    if let code = caseFoldedCodes[character] { return code }
    // Without case, no other case to look for (U+FFFD, for each byte that is not UTF-8).
    guard character.isCased else { return nil }
    for variant in [String(character).uppercased(), String(character).lowercased()] {
      if variant.count == 1, let single = variant.first, let code = caseFoldedCodes[single] {
        return code
      }
    }
    return nil
  }

  /// The code of an ASCII character by its value (a quick path for `code(for:)`).
  static func asciiCode(_ ascii: UInt8) -> MorseCode? {
    ascii < 0x80 ? asciiCodes[Int(ascii)] : nil
  }

  /// The ITU characters a character without its own signal is sent as, e.g. "0/0" for "%",
  /// "..." for "…". (A Latin letter with a mark that has no signal of its own is sent as its
  /// letter: `baseLetter(of:)`.)
  public static func substitution(for character: Character) -> String? {
    substitutions[character]
  }

  /// The letter of a Latin letter with a diacritic or stroke, by its Unicode name ("LATIN
  /// SMALL LETTER I WITH DIAERESIS" is I, "LATIN CAPITAL LETTER L WITH STROKE" is L): the one
  /// table of the standard, with no Foundation to decompose it.
  ///
  /// The name, a string built on each call, is looked up only for a letter with case (as every
  /// Latin letter named so is): most characters without a signal, U+FFFD among them, are
  /// refused by a table lookup of their category.
  static func baseLetter(of character: Character) -> String? {
    guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first,
      scalar.value >= 0xC0, mayHaveBaseLetter(scalar), let name = scalar.properties.name
    else { return nil }
    for prefix in ["LATIN CAPITAL LETTER ", "LATIN SMALL LETTER "] where name.hasPrefix(prefix) {
      let rest = name.dropFirst(prefix.count)
      guard let letter = rest.first, letter.isASCII, letter.isLetter,
        rest.count == 1 || rest.dropFirst().hasPrefix(" WITH ")
      else { return nil }
      return String(letter)
    }
    return nil
  }

  /// Whether `scalar` is a letter with case (capital, small or title case), the only kind a
  /// Latin letter with a mark is: the cheap test before its name is looked up.
  static func mayHaveBaseLetter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter: true
    default: false
    }
  }

  /// The text a code decodes to: a letter of `alphabet` if it has one, else an ITU
  /// character, else an extension character, else a prosign name like "<SK>", else nil.
  public static func text(for code: MorseCode, alphabet: NationalAlphabet = .latin) -> String? {
    alphabet.text(for: code) ?? decodedTexts[code]
  }

  /// True for characters joined to a preceding number by a hyphen ("2%" is sent 2-0/0).
  static func isJoinedToNumber(_ character: Character) -> Bool {
    character == "%" || character == "‰" || isFraction(character)
  }

  /// True for the vulgar fractions, which count as a number themselves ("4½%").
  static func isFraction(_ character: Character) -> Bool {
    character.isNumber && substitutions[character] != nil
  }

  /// Codes of the substitution spellings, looked up once: word by word, split at spaces (a
  /// spelling that starts or ends with a space has an empty first or last word).
  static let substitutionCodes: [Character: [[MorseCode]]] = substitutions.mapValues {
    spelling in
    spelling.split(separator: " ", omittingEmptySubsequences: false).map { word in
      word.compactMap { code(for: $0) }
    }
  }

  /// The hyphen sent between a number and a following % or ‰.
  static let hyphenCode = MorseCode(table: "-....-")

  /// Characters paired with codes from table literals.
  private static func characterTable(_ list: [(Character, String)]) -> [(
    character: Character, code: MorseCode
  )] {
    list.map { (character: $0.0, code: MorseCode(table: $0.1)) }
  }

  /// Prosign names paired with codes from table literals.
  private static func prosignTable(_ list: [(String, String)]) -> [(name: String, code: MorseCode)]
  {
    list.map { (name: $0.0, code: MorseCode(table: $0.1)) }
  }

  /// Codes indexed by ASCII value, lowercase letters included.
  private static let asciiCodes: [MorseCode?] = {
    var codes = [MorseCode?](repeating: nil, count: 128)
    for entry in internationalEntries + extendedEntries {
      guard let ascii = entry.character.asciiValue else { continue }
      codes[Int(ascii)] = entry.code
      // The lowercase of an ASCII capital, without Unicode's case tables (this runs before
      // the first edge of every send).
      if (0x41...0x5A).contains(ascii) { codes[Int(ascii | 0x20)] = entry.code }
    }
    return codes
  }()

  /// Every table character (Latin, extension, Cyrillic, Greek) and its single-character
  /// lower- and uppercase forms.
  private static let caseFoldedCodes: [Character: MorseCode] = {
    var codes: [Character: MorseCode] = [:]
    let national = NationalAlphabet.cyrillic.entries + NationalAlphabet.greek.entries
    for entry in internationalEntries + extendedEntries + national {
      if codes[entry.character] == nil { codes[entry.character] = entry.code }
      for variant in [String(entry.character).lowercased(), String(entry.character).uppercased()]
      where variant.count == 1 {
        if let single = variant.first, codes[single] == nil { codes[single] = entry.code }
      }
    }
    return codes
  }()

  /// The procedural signals ITU-R M.1677-1 itself defines beside its characters: understood,
  /// wait, starting signal, error, end of work. On a code they share with an extension
  /// character (`...-.` with Ŝ, `.-...` with &), the signal is what is decoded.
  public static let internationalProsignNames: Set<String> = ["VE", "AS", "KA", "HH", "SK"]

  /// Reverse table: ITU characters first, then ITU procedural signals, then extension
  /// characters in order, then the other prosigns in order.
  private static let decodedTexts: [MorseCode: String] = {
    var texts: [MorseCode: String] = [:]
    let international = prosignEntries.filter { internationalProsignNames.contains($0.name) }
    let decoded =
      internationalEntries.map { ($0.code, String($0.character)) }
      + international.map { ($0.code, "<\($0.name)>") }
      + extendedEntries.map { ($0.code, String($0.character)) }
      + prosignEntries.map { ($0.code, "<\($0.name)>") }
    for (code, text) in decoded where texts[code] == nil { texts[code] = text }
    return texts
  }()
}
