import LinuxSystem

/// A thread-safe counter.
public final class Counter: @unchecked Sendable {
  private let lock = Lock()
  private var count = 0
  public init() {}
  /// Adds one.
  public func increment() { lock.withLock { count += 1 } }
  /// The count so far.
  public var value: Int { lock.withLock { count } }
}
