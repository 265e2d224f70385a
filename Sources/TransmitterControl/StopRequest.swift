/// Who asked a transmission (or a waiting sender) to stop, as the kernel says (`SO_PEERCRED`).
public struct StopRequest: Sendable, Hashable {
  /// The asking process.
  public let processID: Int32
  /// Its user.
  public let userID: UInt32
}
