/// Removes terminal control sequences (ECMA-48) from a stream of text that arrives in pieces:
/// one state machine, whose state goes from one piece to the next, so a sequence cut between
/// two pieces is removed whole and the inside of a long OSC or DCS string is never text.
///
/// Its states are those a DEC-compatible terminal parses with (ground, escape, escape
/// intermediate, control sequence, and the control strings OSC, DCS, SOS, PM and APC), merged
/// where a filter has nothing to tell apart: all that is not ground is dropped. From any state,
/// CAN and SUB cancel the sequence, ESC starts a new one (so `ESC \`, ST, ends a string), and a
/// C1 control (U+0080–U+009F) acts as its 7-bit form. Other control characters are dropped too,
/// but tab and line breaks, which stay in the text.
///
/// A line end ends the sequence in progress (unlike a terminal, which would go on): a line of a
/// log is a record of its own, and a sequence its line did not finish is broken output, not a
/// reason to swallow the next records. A sequence longer than its limit (`stringLimit`,
/// `sequenceLimit`) is reported once, and goes on being dropped to its end or its line's: the
/// inside of a string is never sent as text, however long it runs (its line ends it, and
/// nothing of it is kept meanwhile), and an escape or control sequence can hold only digits,
/// separators and punctuation (its first letter ends it), never words.
public struct ControlSequenceFilter: Sendable, Hashable {
  /// How many characters (Unicode scalars) a control string (OSC, DCS, SOS, PM, APC) may run,
  /// its introducer included, before it is reported: 64 Ki. Real strings are window titles and
  /// hyperlinks of a few hundred characters, a clipboard copy (OSC 52) or a small image some
  /// kilobytes; one far longer is broken output, or a string whose end never came, which
  /// swallows the rest of its line.
  public static let stringLimit = 64 * 1024
  /// How many characters an escape or control sequence (CSI) may run, its introducer included,
  /// before it is reported: 4 Ki. Real ones are a few dozen (`ESC[0;1;39m`); one far longer is
  /// broken output, worth a word, although what it swallows is no text.
  public static let sequenceLimit = 4 * 1024

  /// Where in a sequence the filter is.
  enum State: Sendable, Hashable {
    /// Text.
    case ground
    /// After ESC.
    case escape
    /// After ESC and one or more intermediate bytes (`ESC (`).
    case escapeIntermediate
    /// After CSI: parameter and intermediate bytes, up to a final byte.
    case controlSequence
    /// Inside a control string, up to its end.
    case string(ControlSequenceKind)
  }

  /// The state after the text filtered so far.
  private(set) var state = State.ground
  /// How many characters the sequence in progress has run, its introducer included.
  private var length = 0

  /// A filter at the start of a stream, in text.
  public init() {}

  /// `text` without its control sequences, and the kinds of those that went over their limit
  /// in it; the state
  /// goes on to the next piece. `text` is one piece of a line, or several lines.
  public mutating func filter(_ text: String) -> (text: String, overruns: [ControlSequenceKind]) {
    if state == .ground, !text.unicodeScalars.contains(where: Self.isControl) {
      return (text, [])
    }
    var result = String.UnicodeScalarView()
    var overruns: [ControlSequenceKind] = []
    for scalar in text.unicodeScalars {
      if let kind = consume(scalar, into: &result) { overruns.append(kind) }
    }
    return (String(result), overruns)
  }

  /// A line ended between two pieces (as a line feed in the text does): the sequence in
  /// progress, if any, ends with it.
  public mutating func endLine() {
    state = .ground
    length = 0
  }

  /// Whether `scalar` is a C0 or C1 control or DEL.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// Takes one character: appends it to `text` if it is text; returns the kind of a sequence
  /// this character takes over its limit.
  private mutating func consume(
    _ scalar: Unicode.Scalar, into text: inout String.UnicodeScalarView
  ) -> ControlSequenceKind? {
    if scalar.value == 0x0A {
      endLine()
      text.append(scalar)
      return nil
    }
    var overrun: ControlSequenceKind?
    if state != .ground {
      length += 1
      overrun = self.overrun()
    }
    switch (state, scalar.value) {
    case (_, 0x18), (_, 0x1A), (_, 0x1B), (_, 0x80...0x9F):
      enter(scalar, into: &text)
    case (.ground, _):
      enter(scalar, into: &text)
    case (.escape, _), (.escapeIntermediate, _), (.controlSequence, _):
      sequence(scalar, into: &text)
    case (.string(let kind), 0x07) where kind == .operatingSystemCommand:
      endLine()  // BEL, as xterm ends an OSC
    case (.string, _):
      break
    }
    return overrun
  }

  /// How many characters a sequence of `kind` may run: `stringLimit` or `sequenceLimit`.
  public static func limit(of kind: ControlSequenceKind) -> Int {
    kind.isString ? stringLimit : sequenceLimit
  }

  /// The kind of the sequence in progress if its length is over its limit.
  private func overrun() -> ControlSequenceKind? {
    let kind: ControlSequenceKind
    switch state {
    case .ground: return nil
    case .string(let stringKind): kind = stringKind
    case .escape, .escapeIntermediate: kind = .escape
    case .controlSequence: kind = .controlSequence
    }
    // Reported once, as it goes over.
    return length == Self.limit(of: kind) + 1 ? kind : nil
  }

  /// A character read as from ground, whatever the state: text, a control to drop, or the
  /// introducer of a sequence (a C1 control, ESC), or its cancellation (CAN, SUB, ST).
  private mutating func enter(_ scalar: Unicode.Scalar, into text: inout String.UnicodeScalarView) {
    endLine()
    switch scalar.value {
    case 0x1B: start(.escape)
    case 0x9B: start(.controlSequence)
    default:
      if let kind = ControlSequenceKind(introducer: scalar, isC1: true) {
        start(.string(kind))
      } else if scalar.value == 0x09 || scalar.value == 0x0A || scalar.value == 0x0D {
        text.append(scalar)
      } else if !Self.isControl(scalar) {
        text.append(scalar)
      }
    }
  }

  /// A character inside an escape or control sequence.
  private mutating func sequence(
    _ scalar: Unicode.Scalar, into text: inout String.UnicodeScalarView
  ) {
    let value = scalar.value
    switch (state, value) {
    case (_, 0x00...0x1F), (_, 0x7F):
      break  // a terminal carries out a C0 control inside a sequence, which goes on
    case (.escape, 0x5B):
      state = .controlSequence
    case (.escape, 0x50), (.escape, 0x58), (.escape, 0x5D), (.escape, 0x5E), (.escape, 0x5F):
      state = .string(ControlSequenceKind(introducer: scalar, isC1: false) ?? .escape)
    case (.escape, 0x20...0x2F), (.escapeIntermediate, 0x20...0x2F):
      state = .escapeIntermediate
    case (.controlSequence, 0x20...0x3F):
      break
    case (.controlSequence, 0x40...0x7E), (_, 0x30...0x7E):
      endLine()  // the final byte
    default:
      // Not ASCII: no sequence has it, so the sequence ends unfinished and this is text.
      enter(scalar, into: &text)
    }
  }

  /// Begins a sequence in `state`, its introducer read.
  private mutating func start(_ state: State) {
    self.state = state
    length = 1
  }
}
