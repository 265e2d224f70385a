/// The steps of a message, made one at a time as they are needed.
///
/// Steps strictly alternate: the first is on, the last is on, and exactly one off step lies
/// between two on steps (a word gap replaces the letter gap it falls on). Nothing is stored
/// per character, so a long input never becomes a long array.
public struct MorseSteps<Tokens: Sequence>: Sequence where Tokens.Element == MorseToken {
  private let tokens: Tokens
  private let timing: MorseTiming

  /// The steps of `tokens` at `timing`.
  public init(_ tokens: Tokens, timing: MorseTiming) {
    self.tokens = tokens
    self.timing = timing
  }

  /// Starts a pass over the steps.
  public func makeIterator() -> Iterator {
    Iterator(tokens: tokens.makeIterator(), timing: timing)
  }

  /// Makes the steps of one pass, lazily.
  public struct Iterator: IteratorProtocol {
    private var tokens: Tokens.Iterator
    private let timing: MorseTiming
    private var symbol: MorseSymbol?
    private var nextElement = 0
    private var isGapDue = false
    private var hasSentAny = false
    private var isWordGapPending = false

    fileprivate init(tokens: Tokens.Iterator, timing: MorseTiming) {
      self.tokens = tokens
      self.timing = timing
    }

    /// The next step, or nil after the last on step.
    public mutating func next() -> MorseStep? {
      if let symbol, nextElement < symbol.code.elements.count {
        if isGapDue {
          isGapDue = false
          return MorseStep(kind: .elementGap, duration: timing.unit, symbol: symbol)
        }
        let element = symbol.code.elements[nextElement]
        nextElement += 1
        isGapDue = true
        switch element {
        case .dot: return MorseStep(kind: .dot, duration: timing.dot, symbol: symbol)
        case .dash: return MorseStep(kind: .dash, duration: timing.dash, symbol: symbol)
        }
      }
      while let token = tokens.next() {
        switch token {
        case .wordGap:
          isWordGapPending = hasSentAny
        case .symbol(let next):
          guard !next.code.elements.isEmpty else { continue }
          symbol = next
          nextElement = 0
          isGapDue = false
          guard hasSentAny else {
            hasSentAny = true
            return self.next()
          }
          let isWordGap = isWordGapPending
          isWordGapPending = false
          return isWordGap
            ? MorseStep(kind: .wordGap, duration: timing.wordGap, symbol: next)
            : MorseStep(kind: .letterGap, duration: timing.letterGap, symbol: next)
        }
      }
      return nil
    }
  }
}
