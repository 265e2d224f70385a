/// What a GPIO line's record keeps: where the line is and how it was driven, so that after a
/// transmitter was killed (the kernel released the line, perhaps at its active level) the
/// next run can drive it inactive once more.
public struct SavedGPIOLine: Sendable, Hashable, Codable {
  /// The chip's path (`/dev/gpiochip0`).
  public let chip: String
  /// The line's offset.
  public let offset: Int
  /// Whether active was the low level.
  public let isActiveLow: Bool

  /// A line `offset` of `chip`, active low or not.
  public init(chip: String, offset: Int, isActiveLow: Bool) {
    self.chip = chip
    self.offset = offset
    self.isActiveLow = isActiveLow
  }

  /// Whether a record read from disk could be one of these.
  public var isPlausible: Bool {
    chip.hasPrefix("/") && !chip.contains("\0") && chip.utf8.count < 4096
      && (0..<65_536).contains(offset)
  }
}
