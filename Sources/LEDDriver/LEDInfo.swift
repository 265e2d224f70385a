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
  /// Whether this user may write both `brightness` and `trigger` (`access(2)` with `W_OK`).
  public let isWritable: Bool

  /// An LED description with the given values.
  public init(
    name: String, maxBrightness: Int?, activeTrigger: String?, brightness: Int?,
    isWritable: Bool
  ) {
    self.name = name
    self.maxBrightness = maxBrightness
    self.activeTrigger = activeTrigger
    self.brightness = brightness
    self.isWritable = isWritable
  }
}
