import MorseCore

/// Every code a reading can decode to, by a small integer key: a leading 1 bit, then one bit
/// per element in sending order (0 a dot, 1 a dash), so `.-` is 0b110. Looked up by the
/// decoder for each way it tries to cut and class the marks, so an array, not a dictionary
/// of strings.
struct CodeTable: Sendable {
  /// The most elements of a code with a meaning (`<SOS>`, `...---...`, has nine).
  static let longest = 10

  /// The text of each key, nil where the code has none.
  private let texts: [String?]
  /// Whether a key begins a code with a meaning (is one, or is the start of one).
  private let beginsCode: [Bool]
  /// How often each key's text comes in text, as a log (`LetterShares`).
  private let logShares: [Double]
  /// The elements of the longest code with a meaning.
  let longestCode: Int

  /// The table of each alphabet, made once: a receiver is made anew at every line break.
  private static let tables = Dictionary(
    uniqueKeysWithValues: NationalAlphabet.allCases.map { ($0, CodeTable(alphabet: $0)) })

  /// The table of `alphabet`.
  static func of(_ alphabet: NationalAlphabet) -> CodeTable {
    tables[alphabet] ?? CodeTable(alphabet: alphabet)
  }

  /// The codes of `alphabet` (then ITU, the extensions and the prosigns, as
  /// `MorseAlphabet.text(for:alphabet:)` reads them).
  init(alphabet: NationalAlphabet) {
    let count = 1 << (Self.longest + 1)
    var texts = [String?](repeating: nil, count: count)
    var beginsCode = [Bool](repeating: false, count: count)
    var logShares = [Double](repeating: -.infinity, count: count)
    var longestCode = 0
    for key in 2..<count {
      let code = MorseCode(Self.elements(of: key))
      guard let text = MorseAlphabet.text(for: code, alphabet: alphabet) else { continue }
      texts[key] = text
      logShares[key] = LetterShares.logShare(of: text)
      longestCode = max(longestCode, code.elements.count)
      var prefix = key
      while prefix > 1 {
        beginsCode[prefix] = true
        prefix >>= 1
      }
    }
    self.texts = texts
    self.beginsCode = beginsCode
    self.logShares = logShares
    self.longestCode = longestCode
  }

  /// The key of `key`'s elements followed by a dash (`isDash`) or a dot.
  static func key(_ key: Int, appending isDash: Bool) -> Int { key << 1 | (isDash ? 1 : 0) }

  /// The key of no element yet.
  static let empty = 1

  /// The text of `key`, if it has a meaning.
  func text(of key: Int) -> String? { key < texts.count ? texts[key] : nil }

  /// Whether `key` is a code with a meaning or the start of one.
  func begins(_ key: Int) -> Bool { key < beginsCode.count && beginsCode[key] }

  /// How often `key`'s text comes in text, as a log (minus infinity: no meaning).
  func logShare(of key: Int) -> Double { key < logShares.count ? logShares[key] : -.infinity }

  /// The dots and dashes of `key`.
  static func elements(of key: Int) -> [MorseElement] {
    let length = Int.bitWidth - key.leadingZeroBitCount - 1
    return (0..<length).reversed().map { (key >> $0) & 1 == 1 ? .dash : .dot }
  }
}

/// How often characters come in text: what decides a reading where the lengths cannot.
enum LetterShares {
  /// How often `text` comes in text, as a log: English letters by their frequency, other
  /// letters at one in fifty, figures one in two hundred, other signs one in two thousand,
  /// prosigns one in ten thousand.
  static func logShare(of text: String) -> Double {
    let share: Double
    if let letter = letterShares[text] {
      share = letter
    } else if text.hasPrefix("<") {
      share = 0.0001
    } else if let character = text.first, text.count == 1 {
      share = character.isNumber ? 0.005 : character.isLetter ? 0.02 : 0.0005
    } else {
      share = 0.0005
    }
    return naturalLog(share)
  }

  /// The share of each letter in English text.
  private static let letterShares: [String: Double] = [
    "E": 0.127, "T": 0.091, "A": 0.082, "O": 0.075, "I": 0.070, "N": 0.067, "S": 0.063,
    "H": 0.061, "R": 0.060, "D": 0.043, "L": 0.040, "C": 0.028, "U": 0.028, "M": 0.024,
    "W": 0.024, "F": 0.022, "G": 0.020, "Y": 0.020, "P": 0.019, "B": 0.015, "V": 0.010,
    "K": 0.008, "J": 0.0015, "X": 0.0015, "Q": 0.001, "Z": 0.0007,
  ]

  /// The natural logarithm of `value` (over 0), from its binary exponent and the series of
  /// the inverse hyperbolic tangent for its significand (1 to 2): the standard library has
  /// none, and this module no C library.
  static func naturalLog(_ value: Double) -> Double {
    let significand = value.significand
    let ratio = (significand - 1) / (significand + 1)
    let square = ratio * ratio
    var term = ratio
    var sum = 0.0
    for power in stride(from: 1.0, through: 29, by: 2) {
      sum += term / power
      term *= square
    }
    return Double(value.exponent) * 0.693_147_180_559_945_3 + 2 * sum
  }

  /// e to the `value`: 2 to its whole part in binary times the series of the rest.
  static func exponential(_ value: Double) -> Double {
    let scaled = value / 0.693_147_180_559_945_3
    let whole = scaled.rounded(.down)
    let rest = (scaled - whole) * 0.693_147_180_559_945_3
    var term = 1.0
    var sum = 1.0
    for power in 1...20 {
      term *= rest / Double(power)
      sum += term
    }
    return Double(sign: .plus, exponent: Int(whole), significand: 1) * sum
  }
}
