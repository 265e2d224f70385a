import LinuxSystem

/// A line this process requested as an input, with edge events.
public protocol GPIOInput: AnyObject, Sendable {
  /// The line's level now: whether it is active.
  func isActive() throws(GPIOError) -> Bool
  /// The next edge, waiting up to `timeout` for one; nil when none came.
  func nextEdge(timeout: Duration) throws(GPIOError) -> GPIOLineRequest.Event?
  /// Releases it.
  func release()
}
