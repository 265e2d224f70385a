/// A line this process requested as an output.
public protocol GPIOOutput: AnyObject, Sendable {
  /// Drives it active (`true`) or inactive.
  func set(_ isActive: Bool) throws(GPIOError)
  /// Releases it; what it does then is up to the chip's driver.
  func release()
}
