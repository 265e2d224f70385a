/// The uAPI v2 line flags (`GPIO_V2_LINE_FLAG_*` of `<linux/gpio.h>`).
public struct GPIOLineFlags: OptionSet, Sendable, Hashable {
  public let rawValue: UInt64
  public init(rawValue: UInt64) { self.rawValue = rawValue }

  /// In use: requested by a consumer (or the kernel).
  public static let used = GPIOLineFlags(rawValue: 1 << 0)
  /// Active means physically low.
  public static let activeLow = GPIOLineFlags(rawValue: 1 << 1)
  /// An input.
  public static let input = GPIOLineFlags(rawValue: 1 << 2)
  /// An output.
  public static let output = GPIOLineFlags(rawValue: 1 << 3)
  /// Events on inactive-to-active edges.
  public static let edgeRising = GPIOLineFlags(rawValue: 1 << 4)
  /// Events on active-to-inactive edges.
  public static let edgeFalling = GPIOLineFlags(rawValue: 1 << 5)
  /// Open-drain output.
  public static let openDrain = GPIOLineFlags(rawValue: 1 << 6)
  /// Open-source output.
  public static let openSource = GPIOLineFlags(rawValue: 1 << 7)
  /// Pull-up bias.
  public static let biasPullUp = GPIOLineFlags(rawValue: 1 << 8)
  /// Pull-down bias.
  public static let biasPullDown = GPIOLineFlags(rawValue: 1 << 9)
  /// Bias disabled.
  public static let biasDisabled = GPIOLineFlags(rawValue: 1 << 10)
  /// Event timestamps from CLOCK_REALTIME (without it: CLOCK_MONOTONIC).
  public static let eventClockRealtime = GPIOLineFlags(rawValue: 1 << 11)
}
