/// Terminal control sequences in text (ECMA-48): colours and cursor moves that programs such
/// as systemd put in their log lines. They are no text, so a stream sends none of them.
public enum ControlSequences {
  /// `text` without its control sequences — CSI (`ESC [` … a final byte, as in `ESC[0;1;39m`),
  /// OSC, DCS, SOS, PM and APC strings (`ESC ]` … BEL or `ESC \`), other escape sequences
  /// (`ESC (B`), their one-character C1 forms — and without the other control characters
  /// but tab and line breaks, which have no Morse either.
  public static func removing(from text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var result = String.UnicodeScalarView()
    var scalars = text.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
      switch scalar.value {
      case 0x1B:
        skipEscape(&scalars)
      case 0x9B:
        skipControlSequence(&scalars)
      case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
        skipString(&scalars)
      case 0x09, 0x0A, 0x0D:
        result.append(scalar)
      default:
        if !isControl(scalar) { result.append(scalar) }
      }
    }
    return String(result)
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// After ESC: the rest of its sequence.
  private static func skipEscape(_ scalars: inout Substring.UnicodeScalarView) {
    guard let next = scalars.first else { return }
    switch next {
    case "[":
      scalars.removeFirst()
      skipControlSequence(&scalars)
    case "]", "P", "X", "^", "_":
      scalars.removeFirst()
      skipString(&scalars)
    default:
      // Intermediate bytes, then one final byte.
      while let byte = scalars.first, (0x20...0x2F).contains(byte.value) { scalars.removeFirst() }
      if let final = scalars.first, (0x30...0x7E).contains(final.value) { scalars.removeFirst() }
    }
  }

  /// After CSI: parameter and intermediate bytes, then the final byte.
  private static func skipControlSequence(_ scalars: inout Substring.UnicodeScalarView) {
    while let byte = scalars.first, (0x20...0x3F).contains(byte.value) { scalars.removeFirst() }
    if let final = scalars.first, (0x40...0x7E).contains(final.value) { scalars.removeFirst() }
  }

  /// A control string, up to and with its end: BEL, ST (`ESC \`, or its C1 form), or the line.
  private static func skipString(_ scalars: inout Substring.UnicodeScalarView) {
    while let scalar = scalars.first {
      switch scalar.value {
      case 0x07, 0x9C:
        scalars.removeFirst()
        return
      case 0x0A:
        return
      case 0x1B:
        scalars.removeFirst()
        if scalars.first == "\\" { scalars.removeFirst() }
        return
      default:
        scalars.removeFirst()
      }
    }
  }
}
