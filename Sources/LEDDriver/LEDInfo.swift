/// What a listing of the LED class shows for one LED.
public struct LEDInfo: Sendable, Hashable {
  /// The LED's name.
  public let name: String
  /// `max_brightness`, or nil if unreadable.
  public let maxBrightness: Int?
  /// The active trigger, the bracketed word in `trigger`; nil if unreadable.
  public let activeTrigger: String?
  /// `brightness`, or nil if unreadable.
  public let brightness: Int?
  /// The files `send` writes (`brightness`, `trigger`, and the active trigger's settings, to
  /// put them back) that this user may not write (`access(2)` with `W_OK`).
  public let unwritable: [String]

  /// Whether this user may write everything `send` writes.
  public var isWritable: Bool { unwritable.isEmpty }

  /// An LED description with the given values.
  public init(
    name: String, maxBrightness: Int?, activeTrigger: String?, brightness: Int?,
    unwritable: [String]
  ) {
    self.name = name
    self.maxBrightness = maxBrightness
    self.activeTrigger = activeTrigger
    self.brightness = brightness
    self.unwritable = unwritable
  }
}
