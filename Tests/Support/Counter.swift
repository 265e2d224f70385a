import Synchronization

/// A thread-safe counter.
public final class Counter: Sendable {
  private let count = Mutex(0)
  public init() {}
  /// Adds one.
  public func increment() { count.withLock { $0 += 1 } }
  /// The count so far.
  public var value: Int { count.withLock { $0 } }
  /// Counts one more and returns the new count: a number no other caller gets.
  public func next() -> Int { count.withLock { $0 += 1; return $0 } }
}
