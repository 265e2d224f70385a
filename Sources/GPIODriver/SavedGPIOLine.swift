import DeviceContract

/// What a GPIO line's record keeps: where the line is and how it was driven, so that after a
/// transmitter was killed (the kernel released the line, perhaps at its active level) the
/// next run can drive it inactive once more.
public struct SavedGPIOLine: Sendable, Hashable {
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

  /// The line as a record keeps it: `chip`, `offset` and `active-low` (`yes` or `no`).
  public var fields: SavedFields {
    SavedFields([
      .init("chip", chip), .init("offset", String(offset)),
      .init("active-low", isActiveLow ? "yes" : "no"),
    ])
  }

  /// The line `fields` describe, checked as `isPlausible` says; nil for anything else.
  public init?(fields: SavedFields) {
    guard fields.fields.count == 3, let chip = fields.value(of: "chip"),
      let offsetText = fields.value(of: "offset"), offsetText.count <= 5,
      offsetText.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let offset = Int(offsetText),
      let activeLow = fields.value(of: "active-low"), activeLow == "yes" || activeLow == "no"
    else { return nil }
    self.init(chip: chip, offset: offset, isActiveLow: activeLow == "yes")
    guard isPlausible else { return nil }
  }

  /// Whether a record read from disk could be one of these.
  public var isPlausible: Bool {
    chip.hasPrefix("/") && !chip.contains("\0") && chip.utf8.count < 4096
      && (0..<65_536).contains(offset)
  }
}
