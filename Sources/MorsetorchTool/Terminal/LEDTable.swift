import LEDDriver

/// Formats LEDs as the table `morsetorch list` prints.
enum LEDTable {
  /// The header and one aligned row per LED; unknown values show as "?".
  static func lines(for leds: [LEDInfo]) -> [String] {
    let header = ["NAME", "MAX", "TRIGGER", "BRIGHTNESS", "WRITABLE"]
    let rows = leds.map { led in
      [
        TerminalText.escaped(led.name), led.maxBrightness.map(String.init) ?? "?",
        led.activeTrigger ?? "?",
        led.brightness.map(String.init) ?? "?",
        led.isWritable ? "yes" : "no (\(led.unwritable.joined(separator: ", ")))",
      ]
    }
    return TextTable.aligned([header] + rows)
  }
}
