/// One signal to send: a character, a prosign, or one part of an ITU substitution.
public struct MorseSymbol: Sendable, Hashable {
  /// What the user wrote: "S", "<SK>", "%", "×".
  public let text: String
  /// What is sent.
  public let code: MorseCode

  /// A symbol sending `code` on behalf of `text`.
  public init(text: String, code: MorseCode) {
    self.text = text
    self.code = code
  }
}

/// One item of a message: a signal, or the gap between two words.
public enum MorseToken: Sendable, Hashable {
  /// A signal, followed by a letter gap if another symbol comes next.
  case symbol(MorseSymbol)
  /// The gap between two words (whitespace in the text).
  case wordGap
}

/// What to do with a character that has no Morse signal.
public enum UnknownCharacterPolicy: Sendable {
  /// Refuse the whole text (the default): nothing is sent.
  case reject
  /// Drop the character and report it in `MorseMessage.skipped`.
  case skip
}

/// A validated message: a lazy sequence of tokens.
///
/// Whitespace runs become one `wordGap`, never first, last or twice in a row. Prosigns are
/// written in angle brackets (`<SK>`); ITU substitutions (`%` as `0/0`) send several symbols.
public struct MorseMessage: Sequence, Sendable {
  /// How many skipped characters `skipped` keeps.
  public static let skippedLimit = 20

  private let text: String
  private let firstLine: Int
  private let policy: UnknownCharacterPolicy
  /// The first `skippedLimit` characters dropped by the `.skip` policy.
  public let skipped: [UnsendableCharacter]
  /// How many characters the `.skip` policy dropped in all.
  public let skippedCount: Int
  /// True when there is no symbol to send (only whitespace or skipped characters).
  public let isEmpty: Bool

  /// Validates the whole text before anything can be sent.
  ///
  /// With `.reject`, throws `MorseError.unsendable` on the first character without a signal,
  /// and the prosign errors on a malformed `<…>`. With `.skip`, such characters (and the `<`
  /// of a malformed prosign) are dropped and reported in `skipped`. Stores nothing per
  /// character, so the text may be large.
  public init(
    _ text: String, firstLine: Int = 1, unknownCharacters: UnknownCharacterPolicy = .reject
  ) throws(MorseError) {
    let normalized = Self.normalized(text)
    var tokenizer = MorseTokenizer(normalized, firstLine: firstLine, policy: unknownCharacters)
    var skipped: [UnsendableCharacter] = []
    var skippedCount = 0
    var hasSymbol = false
    while let event = try tokenizer.next() {
      switch event {
      case .token(.symbol): hasSymbol = true
      case .token(.wordGap): break
      case .skipped(let character):
        skippedCount += 1
        if skipped.count < Self.skippedLimit { skipped.append(character) }
      }
    }
    self.text = normalized
    self.firstLine = firstLine
    self.policy = unknownCharacters
    self.skipped = skipped
    self.skippedCount = skippedCount
    self.isEmpty = !hasSymbol
  }

  /// A fresh lazy pass over the tokens.
  public func makeIterator() -> Iterator {
    Iterator(tokenizer: MorseTokenizer(text, firstLine: firstLine, policy: policy))
  }

  /// Letters separated by one space, words by " / ": "SOS" gives "... --- ...".
  public var encoded: String {
    var result = ""
    var isAfterSymbol = false
    for token in self {
      switch token {
      case .symbol(let symbol):
        if isAfterSymbol { result += " " }
        result += symbol.code.description
        isAfterSymbol = true
      case .wordGap:
        result += " /"
      }
    }
    return result
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
    let isASCII =
      text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } }
      ?? text.utf8.allSatisfy { $0 < 0x80 }
    // The standard library's own normalizer (what String comparison uses): no Foundation
    // (and no ICU) needed for it.
    return isASCII ? text : String(decoding: text._nfcCodeUnits, as: UTF8.self)
  }
}

/// The one tokenizer behind both validation and iteration: one pass over the characters.
struct MorseTokenizer: Sendable {
  /// What the tokenizer found next.
  enum Event {
    case token(MorseToken)
    case skipped(UnsendableCharacter)
  }

  private var characters: String.Iterator
  private let policy: UnknownCharacterPolicy
  private var line: Int
  /// Column of the next character.
  private var column = 1
  private var hasSentSymbol = false
  private var isGapPending = false
  /// The last symbol sent was part of a number (a digit or a fraction).
  private var followsNumber = false
  /// Symbols found but not handed out yet, last first.
  private var queue: [MorseSymbol] = []

  init(_ text: String, firstLine: Int, policy: UnknownCharacterPolicy) {
    self.characters = text.makeIterator()
    self.line = firstLine
    self.policy = policy
  }

  /// The next token or skipped character; nil at the end.
  mutating func next() throws(MorseError) -> Event? {
    if let symbol = queue.popLast() { return .token(.symbol(symbol)) }
    while let character = characters.next() {
      let characterLine = line
      let characterColumn = column
      // ASCII first: the Unicode property lookups are most of the time otherwise.
      let ascii = character.asciiValue
      if ascii.map(Self.isASCIIWhitespace) ?? character.isWhitespace {
        // "\n", "\r\n" (whose ASCII value is "\n") and a lone "\r" end a line.
        if ascii == 0x0A || ascii == 0x0D {
          line += 1
          column = 1
        } else {
          column += 1
        }
        if hasSentSymbol { isGapPending = true }
        followsNumber = false
        continue
      }
      column += 1
      let code =
        if let ascii { MorseAlphabet.asciiCode(ascii) } else { MorseAlphabet.code(for: character) }
      if let code {
        let isDigit = ascii.map { (0x30...0x39).contains($0) } ?? false
        defer { followsNumber = isDigit }
        return send(MorseSymbol(text: String(character), code: code))
      }
      if character == "<" {
        let position = UnsendableCharacter(
          character: character, line: characterLine, column: characterColumn)
        if let symbol = try prosign(openedAt: position) {
          followsNumber = false
          return send(symbol)
        }
        return .skipped(position)
      }
      if let codes = MorseAlphabet.substitutionCodes[character] {
        let text = String(character)
        var symbols = codes.map { MorseSymbol(text: text, code: $0) }
        if followsNumber && MorseAlphabet.isJoinedToNumber(character) {
          symbols.insert(MorseSymbol(text: text, code: MorseAlphabet.hyphenCode), at: 0)
        }
        followsNumber = MorseAlphabet.isFraction(character)
        return send(symbols)
      }
      let unsendable = UnsendableCharacter(
        character: character, line: characterLine, column: characterColumn)
      guard policy == .skip else { throw .unsendable(unsendable) }
      // `followsNumber` stays: what is sent around the dropped character still touches.
      return .skipped(unsendable)
    }
    return nil
  }

  /// Tab, line feed ("\r\n" reports it too), vertical tab, form feed, carriage return, space.
  private static func isASCIIWhitespace(_ ascii: UInt8) -> Bool {
    (0x09...0x0D).contains(ascii) || ascii == 0x20
  }

  /// Hands out one symbol, after a pending word gap.
  private mutating func send(_ symbol: MorseSymbol) -> Event {
    hasSentSymbol = true
    if isGapPending {
      isGapPending = false
      queue.append(symbol)
      return .token(.wordGap)
    }
    return .token(.symbol(symbol))
  }

  /// Hands out several symbols in order, after a pending word gap.
  private mutating func send(_ symbols: [MorseSymbol]) -> Event {
    guard let first = symbols.first else { return .token(.wordGap) }
    queue.append(contentsOf: symbols.dropFirst().reversed())
    return send(first)
  }

  /// Reads `<LETTERS>` after the `<` just read; the symbol, or nil if `.skip` drops the `<`.
  ///
  /// Only a run of letters is scanned ahead, so no character is looked at more than twice.
  private mutating func prosign(
    openedAt opening: UnsendableCharacter
  ) throws(MorseError) -> MorseSymbol? {
    var lookahead = characters
    var lookaheadColumn = column
    var name = "<"
    var elements: [MorseElement] = []
    while true {
      guard let next = lookahead.next(), !Self.isNewline(next) else {
        guard policy == .skip else {
          throw .unclosedProsign(line: opening.line, column: opening.column)
        }
        return nil
      }
      if next == ">" {
        guard !elements.isEmpty else {
          guard policy == .skip else {
            throw .emptyProsign(line: opening.line, column: opening.column)
          }
          return nil
        }
        characters = lookahead
        column = lookaheadColumn + 1
        return MorseSymbol(text: name + ">", code: MorseCode(elements))
      }
      guard next.isLetter, let code = MorseAlphabet.code(for: next) else {
        guard policy == .skip else {
          let stray = UnsendableCharacter(character: next, line: line, column: lookaheadColumn)
          throw Self.isClosedLater(lookahead)
            ? .invalidProsignCharacter(stray)
            : .unclosedProsign(line: opening.line, column: opening.column)
        }
        return nil
      }
      let upper = String(next).uppercased()
      name += upper.count == 1 ? upper : String(next)
      elements += code.elements
      lookaheadColumn += 1
    }
  }

  /// True if a `>` comes before the end of the line.
  private static func isClosedLater(_ characters: String.Iterator) -> Bool {
    var characters = characters
    while let character = characters.next(), !isNewline(character) {
      if character == ">" { return true }
    }
    return false
  }

  /// "\n", "\r\n" and a lone "\r" end a line.
  private static func isNewline(_ character: Character) -> Bool {
    character == "\n" || character == "\r\n" || character == "\r"
  }
}
