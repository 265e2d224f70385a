import MorseCore

/// What a request keys: its steps (a leading off step when it starts with a space), the speed
/// it leaves, and the gap owed before the next request's first mark.
///
/// Weighting follows the keyers' rule: each mark is longer by `d` and the gap after it shorter
/// by as much, so every element keeps its period: d = 2 × (L − 50)/100 units, with L = 50 +
/// 0.6 × weighting as libcw takes cwdaemon's −50…50 (at 50, a dot is 1.6 units and its gap 0.4).
public struct CWDaemonKeying: Sendable, Equatable {
  /// The steps, alternating on and off (a pause first for a leading space, last for a
  /// trailing one); none when nothing in the text has a code.
  public let steps: [MorseStep]
  /// The speed after the text's `+` and `-`.
  public let speed: Int
  /// The gap owed after the steps before the next text's first mark: a letter gap (with a
  /// pending `~`'s units), or none after a trailing space, which the steps end with.
  public let trailingGap: Duration
  /// The bytes with no code, left out.
  public let dropped: [UInt8]

  /// Whether anything is keyed.
  public var isEmpty: Bool { !steps.contains(where: \.isOn) }

  /// The lengths of one speed and weighting.
  struct Lengths {
    let unit: Duration
    let weight: Duration

    init(speed: Int, weighting: Int) {
      unit = .microseconds(1_200_000 / speed)
      // d = 2 × (0.6 × weighting) / 100 units = 1.2 × weighting / 100.
      weight = unit * (12 * weighting) / 1_000
    }

    var dot: Duration { unit + weight }
    var dash: Duration { unit * 3 + weight }
    var elementGap: Duration { unit - weight }
    var letterGap: Duration { unit * 3 - weight }
    var wordGap: Duration { unit * 7 - weight }
  }

  /// Collects a text's steps character by character.
  struct Builder {
    var speed: Int
    let weighting: Int
    var dropped: [UInt8] = []
    private var steps: [MorseStep] = []
    /// The gap before the next character: nil at the start with no space yet.
    private var pendingGap: (kind: MorseStep.Kind, duration: Duration)?
    private var extraUnits: Duration = .zero

    init(speed: Int, weighting: Int) {
      self.speed = speed
      self.weighting = weighting
    }

    private var lengths: Lengths { Lengths(speed: speed, weighting: weighting) }

    mutating func addWordGap() {
      let lengths = lengths
      // Before anything was keyed a space is a pause (cwdaemon's leading space keys nothing
      // for as long); after a mark, the word gap replaces the letter gap.
      pendingGap = (.wordGap, lengths.wordGap + extraUnits)
    }

    mutating func add(_ symbol: MorseSymbol, extraGap: Bool) {
      let lengths = lengths
      if let gap = pendingGap {
        steps.append(MorseStep(kind: gap.kind, duration: gap.duration, symbol: symbol))
      }
      for (index, element) in symbol.code.elements.enumerated() {
        if index > 0 {
          steps.append(MorseStep(kind: .elementGap, duration: lengths.elementGap, symbol: symbol))
        }
        switch element {
        case .dot: steps.append(MorseStep(kind: .dot, duration: lengths.dot, symbol: symbol))
        case .dash: steps.append(MorseStep(kind: .dash, duration: lengths.dash, symbol: symbol))
        }
      }
      extraUnits = extraGap ? lengths.unit * 2 : .zero
      pendingGap = (.letterGap, lengths.letterGap + extraUnits)
    }

    var keying: CWDaemonKeying {
      let lengths = lengths
      guard let last = steps.last else {
        return CWDaemonKeying(steps: [], speed: speed, trailingGap: .zero, dropped: dropped)
      }
      // A trailing space is silence the text itself ends with (its reply comes after it, as a
      // receiver sees the word end); otherwise the next text owes a letter gap.
      if let gap = pendingGap, gap.kind == .wordGap {
        let pause = MorseStep(kind: .wordGap, duration: gap.duration, symbol: last.symbol)
        return CWDaemonKeying(
          steps: steps + [pause], speed: speed, trailingGap: .zero, dropped: dropped)
      }
      return CWDaemonKeying(
        steps: steps, speed: speed,
        trailingGap: max(pendingGap?.duration ?? .zero, lengths.letterGap), dropped: dropped)
    }
  }
}
