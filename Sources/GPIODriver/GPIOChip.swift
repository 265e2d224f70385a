import LinuxSystem

/// One GPIO chip: a kernel character device, or what a test injects in its place
/// (`GPIOChipStandIn`).
public protocol GPIOChip: AnyObject, Sendable {
  /// Where it is: `/dev/gpiochip0`.
  var path: String { get }
  /// Its name, label and number of lines.
  func info() throws(GPIOError) -> GPIOChipFile.Info
  /// What one line is, and who uses it.
  func lineInfo(offset: Int) throws(GPIOError) -> GPIOChipFile.LineInfo
  /// Requests line `offset` as an output with `flags` (`.output` and any of `.activeLow`,
  /// the bias flags), starting inactive; `lineBusy` when another consumer has it.
  func requestOutput(offset: Int, flags: GPIOLineFlags, consumer: String) throws(GPIOError)
    -> any GPIOOutput
  /// Requests line `offset` as an input with `flags` (`.input`, both edge flags, and any of
  /// `.activeLow` and the bias flags): its edges come with the kernel's timestamps.
  func requestInput(offset: Int, flags: GPIOLineFlags, consumer: String) throws(GPIOError)
    -> any GPIOInput
}
