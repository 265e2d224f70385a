import Testing

@testable import MorseCore

/// Codes shared by several extension characters decode to this documented choice.
private let documentedDecoding: [String: String] = [
  ".-.-": "Ä", ".--.-": "À", "-.-..": "Ç", "---.": "Ö", "..--": "Ü",
  // Codes of an ITU signal: "wait", "understood".
  ".-...": "<AS>", "...-.": "<VE>",
]

/// The single-character lowercase form, or the character itself (ß stays ß).
private func lowercase(_ character: Character) -> Character {
  let lower = String(character).lowercased()
  return lower.count == 1 ? lower.first ?? character : character
}

@Suite struct MorseAlphabetTests {
  @Test(arguments: MorseAlphabet.internationalEntries.map(\.character))
  func internationalCharacterIsFoundInBothCases(_ character: Character) throws {
    let code = try #require(MorseAlphabet.international[character])
    #expect(MorseAlphabet.code(for: character) == code)
    #expect(MorseAlphabet.code(for: lowercase(character)) == code)
  }

  @Test(arguments: MorseAlphabet.extendedEntries.map(\.character))
  func extendedCharacterIsFoundInBothCases(_ character: Character) throws {
    let code = try #require(MorseAlphabet.extended[character])
    #expect(MorseAlphabet.code(for: character) == code)
    #expect(MorseAlphabet.code(for: lowercase(character)) == code)
    #expect(MorseAlphabet.international[character] == nil)
  }

  @Test(
    arguments: MorseAlphabet.internationalEntries.map(\.character)
      + MorseAlphabet.extendedEntries.map(\.character))
  func encodingThenDecodingGivesTheCharacterBack(_ character: Character) throws {
    let code = try #require(MorseAlphabet.code(for: character))
    let expected = documentedDecoding[code.description] ?? String(character)
    for written in [character, lowercase(character)] {
      let encoded = try MorseMessage(String(written)).encoded
      #expect(encoded == code.description)
      #expect(try MorseDecoder.decode(encoded) == expected)
    }
  }

  @Test func noTwoInternationalCharactersShareACode() {
    let codes = MorseAlphabet.internationalEntries.map(\.code)
    #expect(Set(codes).count == codes.count)
    #expect(MorseAlphabet.international.count == codes.count)
  }

  @Test func noExtensionCharacterReusesAnInternationalCode() {
    let international = Set(MorseAlphabet.internationalEntries.map(\.code))
    let clashes = MorseAlphabet.extendedEntries.filter { international.contains($0.code) }
    #expect(clashes.map(\.character).isEmpty)
  }

  @Test func everyCharacterCodeHasOneToEightElements() {
    for entry in MorseAlphabet.internationalEntries + MorseAlphabet.extendedEntries {
      #expect((1...8).contains(entry.code.elements.count), "\(entry.character)")
    }
  }

  @Test func everyProsignIsItsLettersRunTogether() throws {
    for entry in MorseAlphabet.prosignEntries {
      var elements: [MorseElement] = []
      for letter in entry.name {
        elements += try #require(MorseAlphabet.international[letter]).elements
      }
      #expect(entry.code.elements == elements, "\(entry.name)")
      #expect((1...9).contains(entry.code.elements.count))
    }
    #expect(MorseAlphabet.prosigns["HH"]?.elements.count == 8)
  }

  @Test func requiredProsignsAreNamed() {
    for name in ["SK", "AR", "BT", "KN", "SOS", "HH"] {
      #expect(MorseAlphabet.prosigns[name] != nil, "\(name)")
    }
  }

  /// Written out here, independent of the table, from ITU-R M.1677-1.
  @Test(arguments: [
    ("A", ".-"), ("E", "."), ("É", "..-.."), ("Q", "--.-"), ("Z", "--.."), ("0", "-----"),
    ("9", "----."), (".", ".-.-.-"), (",", "--..--"), (":", "---..."), ("?", "..--.."),
    ("'", ".----."), ("-", "-....-"), ("/", "-..-."), ("(", "-.--."), (")", "-.--.-"),
    ("\"", ".-..-."), ("=", "-...-"), ("+", ".-.-."), ("@", ".--.-."),
  ])
  func internationalCodeMatchesTheRecommendation(character: String, code: String) throws {
    let character = try #require(character.first)
    #expect(MorseAlphabet.international[character]?.description == code)
  }

  @Test(arguments: [
    ("!", "-.-.--"), ("$", "...-..-"), ("&", ".-..."), (";", "-.-.-."), ("_", "..--.-"),
    ("Ä", ".-.-"), ("Ñ", "--.--"), ("Ö", "---."), ("Ü", "..--"), ("ß", "...--.."),
  ])
  func extensionCodeMatchesTheDocumentedChoice(character: String, code: String) throws {
    let character = try #require(character.first)
    #expect(MorseAlphabet.extended[character]?.description == code)
  }

  @Test func lookupIgnoresNormalizationAndCase() {
    #expect(MorseAlphabet.code(for: "e\u{301}")?.description == "..-..")
    #expect(MorseAlphabet.code(for: "E\u{301}")?.description == "..-..")
    #expect(MorseAlphabet.code(for: "é")?.description == "..-..")
    #expect(MorseAlphabet.code(for: "ä")?.description == ".-.-")
    #expect(MorseAlphabet.code(for: "a\u{308}")?.description == ".-.-")
    #expect(MorseAlphabet.code(for: "ß")?.description == "...--..")
    #expect(MorseAlphabet.code(for: "ẞ")?.description == "...--..")
    #expect(MorseAlphabet.code(for: "€") == nil)
    #expect(MorseAlphabet.code(for: "%") == nil)
    #expect(MorseAlphabet.code(for: " ") == nil)
    #expect(MorseAlphabet.code(for: "\r\n") == nil)
  }

  @Test func textForCodePrefersITUThenITUSignalsThenExtensionThenProsign() throws {
    func text(_ code: String) throws -> String? {
      MorseAlphabet.text(for: try #require(MorseCode(code)))
    }
    #expect(try text(".-.-.") == "+")
    #expect(try text("-...-") == "=")
    // The ITU signals "understood" and "wait" before the extension letters on their codes.
    #expect(try text("...-.") == "<VE>")
    #expect(try text(".-...") == "<AS>")
    // AA is no ITU signal: the letter stays.
    #expect(try text(".-.-") == "Ä")
    for name in MorseAlphabet.internationalProsignNames {
      let code = try #require(MorseAlphabet.prosigns[name])
      let character = MorseAlphabet.internationalEntries.first { $0.code == code }?.character
      #expect(MorseAlphabet.text(for: code) == character.map { String($0) } ?? "<\(name)>")
    }
    #expect(try text("...-.-") == "<SK>")
    #expect(try text("........") == "<HH>")
    #expect(try text("...---...") == "<SOS>")
    #expect(try text("-.-.-") == "<KA>")
    #expect(try text(".......") == nil)
  }

  @Test func theDegreeSignIsSentAsAWordOfItsOwn() throws {
    func codes(_ text: String) throws -> String {
      try MorseMessage(text).map { token in
        switch token {
        case .symbol(let symbol): symbol.code.description
        case .wordGap: "/"
        }
      }.joined(separator: " ")
    }
    #expect(try codes("20°C") == "..--- ----- / -.. . --. / -.-.")
    #expect(try codes("20 ° C") == "..--- ----- / -.. . --. / -.-.")
    #expect(try codes("°") == "-.. . --.")
    #expect(try codes("°°") == "-.. . --. / -.. . --.")
  }

  @Test func substitutionSpellingsAreFullyEncodable() {
    for (character, spelling) in MorseAlphabet.substitutions {
      #expect(
        MorseAlphabet.substitutionCodes[character]?.joined().count
          == spelling.filter { $0 != " " }.count, "\(character)")
    }
    #expect(MorseAlphabet.substitution(for: "%") == "0/0")
    #expect(MorseAlphabet.substitution(for: "‰") == "0/00")
    #expect(MorseAlphabet.substitution(for: "×") == "X")
    #expect(MorseAlphabet.substitution(for: "″") == "''")
  }

  @Test func codeParsesOnlyDotsAndDashes() {
    #expect(MorseCode(".-")?.elements == [.dot, .dash])
    #expect(MorseCode(".-")?.description == ".-")
    #expect(MorseCode("") == nil)
    #expect(MorseCode(".-x") == nil)
    #expect(MorseCode(". -") == nil)
    #expect(MorseCode([.dash, .dot]).description == "-.")
    #expect(MorseCode([.dot]).joined(with: MorseCode([.dash])).description == ".-")
  }

  @Test(arguments: [
    ("ï", "I"), ("Ł", "L"), ("ş", "S"), ("Đ", "D"), ("ħ", "H"), ("ů", "U"),
  ])
  func aLatinLetterWithAMarkAndNoCodeIsSentAsItsLetter(character: Character, letter: String) {
    #expect(MorseAlphabet.code(for: character) == nil)
    #expect(MorseAlphabet.baseLetter(of: character) == letter)
  }

  @Test func aLetterWithACodeOfItsOwnKeepsItAndOtherCharactersAreNoLetter() throws {
    // Ä, É, Ñ have codes of their own (extensions); → and ° are no letters at all.
    #expect(try MorseMessage("ÄÉÑ").encoded == ".-.- ..-.. --.--")
    #expect(MorseAlphabet.baseLetter(of: "→") == nil)
    #expect(MorseAlphabet.baseLetter(of: "°") == nil)
    #expect(MorseAlphabet.baseLetter(of: "ß") == nil)
  }

  @Test func aCharacterWithoutCaseOrLetterIsRefusedWithoutItsNameOrOtherCases() {
    // U+FFFD stands for each byte of input that is not UTF-8: refused by its category and
    // case, never by building its name or its upper and lower case as strings.
    let replacement: Unicode.Scalar = "\u{FFFD}"
    #expect(!MorseAlphabet.mayHaveBaseLetter(replacement))
    #expect(!Character(replacement).isCased)
    #expect(MorseAlphabet.code(for: Character(replacement)) == nil)
  }

  @Test func theCheapTestsBeforeANameLookupRefuseNoLatinLetter() {
    // Every scalar of the Latin blocks whose name gives a letter passes the category test.
    let latin = [0xC0...0x24F, 0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xAB30...0xAB6F]
    for scalar in latin.joined().compactMap(Unicode.Scalar.init) {
      guard let name = scalar.properties.name,
        name.hasPrefix("LATIN CAPITAL LETTER ") || name.hasPrefix("LATIN SMALL LETTER ")
      else { continue }
      #expect(MorseAlphabet.mayHaveBaseLetter(scalar), "\(name)")
    }
  }

  @Test func pastedTypographyIsSentAsWhatItStandsFor() throws {
    #expect(try MorseMessage("a…b").encoded == MorseMessage("a...b").encoded)
    #expect(try MorseMessage("a—b–c−d").encoded == MorseMessage("a-b-c-d").encoded)
    #expect(try MorseMessage("«x» „y“ ‹z›").encoded == MorseMessage("\"x\" \"y\" 'z'").encoded)
    #expect(try MorseMessage("naïve Łódź").encoded == MorseMessage("naive Lodz").encoded)
  }
}
