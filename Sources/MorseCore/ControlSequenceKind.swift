/// A kind of terminal control sequence (ECMA-48), by how it begins.
public enum ControlSequenceKind: Sendable, Hashable, CaseIterable {
  /// ESC and what follows it but a CSI or a control string (`ESC (B`).
  case escape
  /// CSI, `ESC [` or U+009B: parameters, then a final byte (`ESC[0;1;39m`).
  case controlSequence
  /// OSC, `ESC ]` or U+009D: a string up to BEL or ST (window titles, hyperlinks).
  case operatingSystemCommand
  /// DCS, `ESC P` or U+0090: a string up to ST (terminal settings, images).
  case deviceControlString
  /// SOS, `ESC X` or U+0098: a string up to ST.
  case startOfString
  /// PM, `ESC ^` or U+009E: a string up to ST.
  case privacyMessage
  /// APC, `ESC _` or U+009F: a string up to ST.
  case applicationProgramCommand

  /// The kind of control string that `scalar` begins: as the byte after ESC, or as its C1
  /// form if `isC1`; nil for any other character.
  init?(introducer scalar: Unicode.Scalar, isC1: Bool) {
    switch (scalar.value, isC1) {
    case (0x5D, false), (0x9D, true): self = .operatingSystemCommand
    case (0x50, false), (0x90, true): self = .deviceControlString
    case (0x58, false), (0x98, true): self = .startOfString
    case (0x5E, false), (0x9E, true): self = .privacyMessage
    case (0x5F, false), (0x9F, true): self = .applicationProgramCommand
    default: return nil
    }
  }

  /// Its name in ECMA-48: "ESC", "CSI", "OSC", "DCS", "SOS", "PM" or "APC".
  public var abbreviation: String {
    switch self {
    case .escape: "ESC"
    case .controlSequence: "CSI"
    case .operatingSystemCommand: "OSC"
    case .deviceControlString: "DCS"
    case .startOfString: "SOS"
    case .privacyMessage: "PM"
    case .applicationProgramCommand: "APC"
    }
  }

  /// Whether it is a control string (OSC, DCS, SOS, PM, APC), which runs up to its end rather
  /// than a final byte.
  public var isString: Bool {
    switch self {
    case .escape, .controlSequence: false
    default: true
    }
  }
}
