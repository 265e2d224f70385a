import LinuxSystem
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
  /// The directory the chip was found in.
  public let directory: GPIOChipDirectory

  /// The chip's path as records keep it: the directory's `gpiochipN` entry, whatever path
  /// or label the user named it by (`GPIOChipDirectory.recordedChip(_:)` takes no other).
  public var recordedChipPath: String { directory.entryPath(chipName) }

  /// How status and errors name it: `gpiochip0:17 (GPIO17)`.
  public var description: String {
    "\(shown: chipName):\(offset)" + (name.isEmpty ? "" : " (\(shown: name))")
  }
}
