/// The LED `LEDClassDirectory.chooseLED()` chose, and what it chose from.
public struct LEDChoice: Sendable, Hashable {
  /// The LED to use.
  public let led: LED
  /// The LEDs it was chosen from, sorted: every torch/flash LED, or every
  /// LED. More than one means the choice deserves a word to the user.
  public let candidates: [String]
  /// Whether the candidates are the torch/flash LEDs (not all LEDs).
  public let areTorches: Bool
  /// How many LEDs there are in all.
  public let total: Int
}
