/// A part of a device's saved state that a restore left alone, and why: the restore did the
/// rest, so the device is usable again, and the caller says what was skipped.
public struct SkippedSetting: Sendable, Hashable {
  /// Why it was skipped.
  public enum Reason: Sendable, Hashable {
    /// It no longer exists (a USB port unplugged since, a trigger module unloaded).
    case gone
    /// It is no setting of the saved trigger: the trigger does not make such a file.
    case notTriggerSetting(trigger: String)
    /// The record's writer (named) may not write it: applying it would lend them rights.
    case writerMayNotWrite(writer: String)
  }

  /// The setting's name, relative to the device (`delay_on`, `ports/1-1`).
  public let name: String
  /// Why it was left alone.
  public let reason: Reason

  /// `name` skipped for `reason`.
  public init(name: String, reason: Reason) {
    self.name = name
    self.reason = reason
  }
}
