import CLinuxSystem

/// One of a serial port's modem lines: the two it drives (DTR, RTS) and the four it reads
/// (CTS, DSR, DCD, RI), named as `--serial PORT:LINE` names them.
public enum SerialLine: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case dtr, rts, cts, dsr, dcd, ri

  /// The line keyed when none is named: DTR, as cwdaemon keys (RTS is then free for PTT).
  public static let keyedByDefault = SerialLine.dtr

  /// Whether the port drives it (DTR, RTS), rather than reads it.
  public var isOutput: Bool { self == .dtr || self == .rts }

  /// Its bit among the lines `TIOCMGET` gives.
  var bit: Int32 {
    switch self {
    case .dtr: Int32(MORSE_SERIAL_DTR)
    case .rts: Int32(MORSE_SERIAL_RTS)
    case .cts: Int32(MORSE_SERIAL_CTS)
    case .dsr: Int32(MORSE_SERIAL_DSR)
    case .dcd: Int32(MORSE_SERIAL_DCD)
    case .ri: Int32(MORSE_SERIAL_RI)
    }
  }

  /// `DTR`.
  public var description: String { rawValue.uppercased() }
}

/// The levels of a port's lines at one moment: which are raised (asserted).
public struct SerialLevels: Sendable, Hashable, CustomStringConvertible {
  /// The lines raised.
  public var raised: Set<SerialLine>

  /// Levels with `raised` up and every other line down.
  public init(raised: Set<SerialLine> = []) {
    self.raised = raised
  }

  /// The levels `TIOCMGET`'s `bits` say.
  init(bits: Int32) {
    raised = Set(SerialLine.allCases.filter { bits & $0.bit != 0 })
  }

  /// Whether `line` is raised.
  public subscript(line: SerialLine) -> Bool {
    get { raised.contains(line) }
    set {
      if newValue { raised.insert(line) } else { raised.remove(line) }
    }
  }

  /// "DTR up, RTS down": the lines the port drives.
  public var description: String {
    SerialLine.allCases.filter(\.isOutput).map { "\($0) \(self[$0] ? "up" : "down")" }
      .joined(separator: ", ")
  }
}
