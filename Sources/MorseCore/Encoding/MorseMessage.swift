/// A validated message: a lazy sequence of tokens.
///
/// Whitespace runs become one `wordGap`, never first, last or twice in a row. Prosigns are
/// written in angle brackets (`<SK>`); ITU substitutions (`%` as `0/0`) send several symbols.
public struct MorseMessage: Sequence, Sendable {
  /// How many skipped characters `skipped` keeps.
  public static let skippedLimit = 20

  private let text: String
  private let firstLine: Int
  private let firstColumn: Int
  private let policy: UnknownCharacterPolicy
  /// The first `skippedLimit` characters dropped by the `.skip` policy.
  public let skipped: [UnsendableCharacter]
  /// How many characters the `.skip` policy dropped in all.
  public let skippedCount: Int
  /// True when there is no symbol to send (only whitespace or skipped characters).
  public let isEmpty: Bool
  /// The dots and dashes, when made while validating (`encoding: true`).
  private let encodedText: String?

  /// Validates the whole text before anything can be sent. Positions in errors count from
  /// `firstLine` and, on that line, from `firstColumn` (a piece of a long line).
  ///
  /// With `.reject`, throws `MorseError.unsendable` on the first character without a signal,
  /// and the prosign errors on a malformed `<…>`. With `.skip`, such characters (and the `<`
  /// of a malformed prosign) are dropped and reported in `skipped`. Stores nothing per
  /// character, so the text may be large; with `encoding`, it also makes `encoded` in the
  /// same pass (for `encode`, which needs nothing else).
  public init(
    _ text: String, firstLine: Int = 1, firstColumn: Int = 1,
    unknownCharacters: UnknownCharacterPolicy = .reject, encoding: Bool = false
  ) throws(MorseError) {
    let normalized = Self.normalized(text)
    // `encode`'s common case, ASCII with nothing but letters, figures, punctuation of their
    // own and whitespace, byte by byte; anything else (a substitution, whose signals depend
    // on its neighbours, a prosign, a character without a signal) goes the whole way.
    if encoding, let (encoded, hasSymbol) = Self.encodedASCII(normalized) {
      self.text = normalized
      self.firstLine = firstLine
      self.firstColumn = firstColumn
      self.policy = unknownCharacters
      self.skipped = []
      self.skippedCount = 0
      self.isEmpty = !hasSymbol
      encodedText = encoded
      return
    }
    var tokenizer = MorseTokenizer(
      normalized, firstLine: firstLine, firstColumn: firstColumn, policy: unknownCharacters)
    var skipped: [UnsendableCharacter] = []
    var skippedCount = 0
    var hasSymbol = false
    var encoder = encoding ? Encoder() : nil
    while let event = try tokenizer.next() {
      switch event {
      case .token(let token):
        if case .symbol = token { hasSymbol = true }
        encoder?.add(token)
      case .skipped(let character):
        skippedCount += 1
        if skipped.count < Self.skippedLimit { skipped.append(character) }
      }
    }
    self.text = normalized
    self.firstLine = firstLine
    self.firstColumn = firstColumn
    self.policy = unknownCharacters
    self.skipped = skipped
    self.skippedCount = skippedCount
    self.isEmpty = !hasSymbol
    encodedText = encoder?.text
  }

  /// A fresh lazy pass over the tokens.
  public func makeIterator() -> Iterator {
    Iterator(
      tokenizer: MorseTokenizer(
        text, firstLine: firstLine, firstColumn: firstColumn, policy: policy))
  }

  /// Letters separated by one space, words by " / ": "SOS" gives "... --- ...".
  public var encoded: String {
    if let encodedText { return encodedText }
    var encoder = Encoder()
    for token in self { encoder.add(token) }
    return encoder.text
  }

  /// Each ASCII byte's code as the bytes of its dots and dashes; nil for a byte that is no
  /// character with a code of its own.
  private static let asciiCodeBytes: [[UInt8]?] = (0..<128).map { byte in
    MorseAlphabet.asciiCode(UInt8(byte)).map { Array($0.description.utf8) }
  }

  /// `encoded` for a text of ASCII letters, figures, punctuation with a code of its own and
  /// whitespace (runs give one " / " between symbols, as the tokenizer's word gaps), and
  /// whether it has a symbol; nil for any other text.
  static func encodedASCII(_ text: String) -> (String, Bool)? {
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count * 5)
    var isAfterSymbol = false
    var isGapPending = false
    for byte in text.utf8 {
      if (0x09...0x0D).contains(byte) || byte == 0x20 {
        isGapPending = isAfterSymbol
        continue
      }
      guard byte < 0x80, let code = asciiCodeBytes[Int(byte)] else { return nil }
      if isGapPending {
        output += [0x20, UInt8(ascii: "/"), 0x20]
        isGapPending = false
      } else if isAfterSymbol {
        output.append(0x20)
      }
      output += code
      isAfterSymbol = true
    }
    return (String(decoding: output, as: UTF8.self), isAfterSymbol)
  }

  /// Builds `encoded` token by token.
  private struct Encoder {
    var text = ""
    private var isAfterSymbol = false

    mutating func add(_ token: MorseToken) {
      switch token {
      case .symbol(let symbol):
        if isAfterSymbol { text += " " }
        text += symbol.code.description
        isAfterSymbol = true
      case .wordGap:
        text += " /"
      }
    }
  }

  /// Lazily produces the tokens of a validated message.
  public struct Iterator: IteratorProtocol, Sendable {
    fileprivate var tokenizer: MorseTokenizer

    /// The next token, or nil at the end.
    public mutating func next() -> MorseToken? {
      do {
        while let event = try tokenizer.next() {
          if case .token(let token) = event { return token }
        }
      } catch {
        // Unreachable: `init` ran the same tokenizer over the same text and policy.
      }
      return nil
    }
  }

  /// The text in NFC, so "e" + U+0301 is reported and sent like "é"; ASCII is left alone.
  private static func normalized(_ text: String) -> String {
    let isASCII: Bool =
      text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } }
      ?? text.utf8.allSatisfy { $0 < 0x80 }
    // The standard library's own normalizer (what String comparison uses): no Foundation
    // (and no ICU) needed for it.
    return isASCII ? text : String(decoding: text._nfcCodeUnits, as: UTF8.self)
  }
}
