/// Terminal control sequences in text (ECMA-48): colours and cursor moves that programs such
/// as systemd put in their log lines. They are no text, so a stream sends none of them.
public enum ControlSequences {
  /// `text` without its control sequences — CSI (`ESC [` … a final byte, as in `ESC[0;1;39m`),
  /// OSC, DCS, SOS, PM and APC strings (`ESC ]` … BEL or `ESC \`), other escape sequences
  /// (`ESC (B`), their one-character C1 forms — and without the other control characters
  /// but tab and line breaks, which have no Morse either. The text is taken whole, as one
  /// piece of a stream: see `ControlSequenceFilter`, which does the work.
  public static func removing(from text: String) -> String {
    var filter = ControlSequenceFilter()
    return filter.filter(text).text
  }
}
