/// A line found by its address: its chip, offset and name.
public struct GPIOLine: Sendable {
  /// The chip.
  public let chip: any GPIOChip
  /// The chip's name (`gpiochip0`).
  public let chipName: String
  /// The line's offset on the chip.
  public let offset: Int
  /// The line's name, if it has one.
  public let name: String

  /// How status and errors name it: `gpiochip0:17 (GPIO17)`.
  public var description: String {
    "\(chipName):\(offset)" + (name.isEmpty ? "" : " (\(name))")
  }
}
