import LinuxSystem

/// A line this process requested as an input, with edge events.
public protocol GPIOInput: AnyObject, Sendable {
  /// The line's level now: whether it is active.
  func isActive() throws(GPIOError) -> Bool
  /// The next edge, waiting up to `timeout` for one unless `stop` fires first (in one
  /// `poll(2)`, as gpiomon waits); nil when none came, or `stop` fired.
  func nextEdge(within timeout: Duration, unlessFired stop: OneShotEvent) throws(GPIOError)
    -> GPIOLineRequest.Event?
  /// Releases it.
  func release()
}
