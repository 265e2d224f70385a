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
  /// Tokens found but not handed out yet, last first.
  private var queue: [MorseToken] = []

  init(_ text: String, firstLine: Int, firstColumn: Int = 1, policy: UnknownCharacterPolicy) {
    self.characters = text.makeIterator()
    self.line = firstLine
    self.column = firstColumn
    self.policy = policy
  }

  /// The next token or skipped character; nil at the end.
  mutating func next() throws(MorseError) -> Event? {
    if let token = queue.popLast() { return .token(token) }
    while let character = characters.next() {
      let characterLine = line
      let characterColumn = column
      // ASCII first: the Unicode property lookups are most of the time otherwise.
      let ascii = character.asciiValue
      // U+FFFD (a byte not UTF-8) has no signal: skipped before any lookup of the alphabet.
      if character == Self.replacement {
        return try unsendable(character, line: characterLine, column: characterColumn, skip: 1)
      }
      // A space carrying a combining mark is one character, but no whitespace to drop: the
      // mark would vanish unseen. It goes on as a character without a signal.
      if ascii.map(Self.isASCIIWhitespace)
        ?? (character.isWhitespace && character.unicodeScalars.count == 1)
      {
        // "\n" and "\r\n" (whose ASCII value is "\n") end a line, as in the line reader; a
        // lone "\r" is whitespace, as a terminal shows it.
        if ascii == 0x0A {
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
      // `<` opens a prosign only where `<LETTERS>` follows; otherwise it is a bracket.
      if character == "<", let symbol = prosign() {
        followsNumber = false
        return send(symbol)
      }
      if let words = MorseAlphabet.substitutionCodes[character] {
        return substitute(character, spelledAs: words)
      }
      if let letter = MorseAlphabet.baseLetter(of: character).flatMap({ $0.first }),
        let code = MorseAlphabet.code(for: letter)
      {
        followsNumber = false
        return send(MorseSymbol(text: String(character), code: code))
      }
      return try unsendable(character, line: characterLine, column: characterColumn)
    }
    return nil
  }

  /// A character without a signal: skipped, or an error, as the policy says. (`followsNumber`
  /// stays: what is sent around the dropped character still touches.)
  /// `skip` is how many columns it has not been counted in yet.
  private mutating func unsendable(
    _ character: Character, line: Int, column: Int, skip: Int = 0
  ) throws(MorseError) -> Event {
    self.column += skip
    let unsendable = UnsendableCharacter(character: character, line: line, column: column)
    guard policy == .skip else { throw .unsendable(unsendable) }
    return .skipped(unsendable)
  }

  /// The replacement character, which stands for bytes that could not be decoded.
  private static let replacement: Character = "\u{FFFD}"

  /// Tab, line feed ("\r\n" reports it too), vertical tab, form feed, carriage return, space.
  private static func isASCIIWhitespace(_ ascii: UInt8) -> Bool {
    (0x09...0x0D).contains(ascii) || ascii == 0x20
  }

  /// A character sent as others (`MorseAlphabet.substitutions`), spelled as `words`: a
  /// spelling with spaces is words of its own ("°" is sent " DEG "), with gaps around them.
  private mutating func substitute(_ character: Character, spelledAs words: [[MorseCode]])
    -> Event
  {
    let text = String(character)
    if words.first?.isEmpty == true, hasSentSymbol { isGapPending = true }
    var tokens = words.filter { !$0.isEmpty }.map { word in
      word.map { MorseToken.symbol(MorseSymbol(text: text, code: $0)) }
    }.joined(separator: [.wordGap]).map { $0 }
    if followsNumber && MorseAlphabet.isJoinedToNumber(character) {
      tokens.insert(.symbol(MorseSymbol(text: text, code: MorseAlphabet.hyphenCode)), at: 0)
    }
    followsNumber = MorseAlphabet.isFraction(character)
    defer { if words.count > 1, words.last?.isEmpty == true { isGapPending = true } }
    return send(tokens)
  }

  /// Hands out one symbol, after a pending word gap.
  private mutating func send(_ symbol: MorseSymbol) -> Event {
    send([.symbol(symbol)])
  }

  /// Hands out several tokens in order (symbols, and word gaps between them), after a pending
  /// word gap.
  private mutating func send(_ tokens: [MorseToken]) -> Event {
    guard let first = tokens.first else { return .token(.wordGap) }
    hasSentSymbol = true
    queue.append(contentsOf: tokens.dropFirst().reversed())
    if isGapPending {
      isGapPending = false
      queue.append(first)
      return .token(.wordGap)
    }
    return .token(first)
  }

  /// Reads `LETTERS>` after the `<` just read, as one prosign; nil (nothing consumed) if what
  /// follows is anything else: then the `<` is an ordinary character.
  ///
  /// Only a run of letters is scanned ahead, so no character is looked at more than twice.
  private mutating func prosign() -> MorseSymbol? {
    var lookahead = characters
    var name = "<"
    var elements: [MorseElement] = []
    var length = 0
    while let next = lookahead.next() {
      if next == ">" {
        guard !elements.isEmpty else { return nil }
        characters = lookahead
        column += length + 1
        return MorseSymbol(text: name + ">", code: MorseCode(elements))
      }
      guard next.isLetter, let code = MorseAlphabet.code(for: next) else { return nil }
      let upper = String(next).uppercased()
      name += upper.count == 1 ? upper : String(next)
      elements += code.elements
      length += 1
    }
    return nil
  }
}
