// The national Morse tables for other scripts, as FreeBSD's morse(6) sends them, and as
// Russian and Greek operators use them. Each letter shares its code with a Latin letter (or an
// extension character), so sending needs no choice, but reading back does: `decode
// --alphabet cyrillic` or `greek`.
//
// Cyrillic (the Russian table): А .- Б -... В .-- Г --. Д -.. Е/Ё . Ж ...- З --.. И .. Й .---
// К -.- Л .-.. М -- Н -. О --- П .--. Р .-. С ... Т - У ..- Ф ..-. Х .... Ц -.-. Ч ---.
// Ш ---- Щ --.- Ъ --.-- Ы -.-- Ь -..- Э ..-.. Ю ..-- Я .-.-; Ukrainian І as И, Ї .---.,
// Є ..-.., Ґ as Г.
// Greek: Α .- Β -... Γ --. Δ -.. Ε . Ζ --.. Η .... Θ -.-. Ι .. Κ -.- Λ .-.. Μ -- Ν -. Ξ -..-
// Ο --- Π .--. Ρ .-. Σ ... Τ - Υ -.-- Φ ..-. Χ ---- Ψ --.- Ω .--; letters with tonos or
// dialytika as their base letter.

/// A script whose letters Morse code can be read back as.
public enum NationalAlphabet: String, CaseIterable, Sendable {
  /// ITU-R M.1677-1 and the documented extension set (the default).
  case latin
  /// Cyrillic, with the Russian table.
  case cyrillic
  /// Greek.
  case greek

  /// The names a user may give (`russian` for `cyrillic`).
  public init?(name: String) {
    switch name.lowercased() {
    case "latin", "international", "itu": self = .latin
    case "cyrillic", "russian": self = .cyrillic
    case "greek": self = .greek
    default: return nil
    }
  }

  /// The letters of this script with their codes, uppercase, in alphabetical order; on a
  /// shared code the first decodes. Empty for `latin` (see `MorseAlphabet`).
  public var entries: [(character: Character, code: MorseCode)] {
    switch self {
    case .latin: []
    case .cyrillic: Self.cyrillicEntries
    case .greek: Self.greekEntries
    }
  }

  /// The letter `code` reads as in this script, if the script has one for it.
  func text(for code: MorseCode) -> String? {
    switch self {
    case .latin: nil
    case .cyrillic: Self.cyrillicTexts[code]
    case .greek: Self.greekTexts[code]
    }
  }

  private static let cyrillicEntries = table([
    ("А", ".-"), ("Б", "-..."), ("В", ".--"), ("Г", "--."), ("Д", "-.."), ("Е", "."),
    ("Ж", "...-"), ("З", "--.."), ("И", ".."), ("Й", ".---"), ("К", "-.-"), ("Л", ".-.."),
    ("М", "--"), ("Н", "-."), ("О", "---"), ("П", ".--."), ("Р", ".-."), ("С", "..."),
    ("Т", "-"), ("У", "..-"), ("Ф", "..-."), ("Х", "...."), ("Ц", "-.-."), ("Ч", "---."),
    ("Ш", "----"), ("Щ", "--.-"), ("Ъ", "--.--"), ("Ы", "-.--"), ("Ь", "-..-"),
    ("Э", "..-.."), ("Ю", "..--"), ("Я", ".-.-"),
    ("Ё", "."), ("І", ".."), ("Ї", ".---."), ("Є", "..-.."), ("Ґ", "--."),
  ])

  private static let greekEntries = table([
    ("Α", ".-"), ("Β", "-..."), ("Γ", "--."), ("Δ", "-.."), ("Ε", "."), ("Ζ", "--.."),
    ("Η", "...."), ("Θ", "-.-."), ("Ι", ".."), ("Κ", "-.-"), ("Λ", ".-.."), ("Μ", "--"),
    ("Ν", "-."), ("Ξ", "-..-"), ("Ο", "---"), ("Π", ".--."), ("Ρ", ".-."), ("Σ", "..."),
    ("Τ", "-"), ("Υ", "-.--"), ("Φ", "..-."), ("Χ", "----"), ("Ψ", "--.-"), ("Ω", ".--"),
    ("Ά", ".-"), ("Έ", "."), ("Ή", "...."), ("Ί", ".."), ("Ϊ", ".."), ("Ό", "---"),
    ("Ύ", "-.--"), ("Ϋ", "-.--"), ("Ώ", ".--"),
  ])

  private static let cyrillicTexts = reverse(cyrillicEntries)
  private static let greekTexts = reverse(greekEntries)

  private static func table(_ list: [(Character, String)]) -> [(
    character: Character, code: MorseCode
  )] {
    list.map { (character: $0.0, code: MorseCode(table: $0.1)) }
  }

  private static func reverse(_ entries: [(character: Character, code: MorseCode)])
    -> [MorseCode: String]
  {
    var texts: [MorseCode: String] = [:]
    for entry in entries where texts[entry.code] == nil {
      texts[entry.code] = String(entry.character)
    }
    return texts
  }
}
