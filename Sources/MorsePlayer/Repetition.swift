/// How many times a message is sent, and the pause between two sendings (`--repeat`,
/// `--loop`, `--pause`).
public struct Repetition: Sendable, Hashable {
  /// How many times; nil for "until stopped".
  public let count: Int?
  /// From the end of one sending to the start of the next.
  public let pause: Duration

  /// `count` times (at least once), or until stopped when nil, with `pause` between.
  public init(count: Int?, pause: Duration) {
    self.count = count.map { max(1, $0) }
    self.pause = pause
  }

  /// Once.
  public static let once = Repetition(count: 1, pause: .zero)

  /// Whether it goes on until stopped.
  public var isEndless: Bool { count == nil }
}
