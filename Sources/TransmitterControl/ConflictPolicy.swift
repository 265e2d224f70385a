/// What to do when another process is already sending on the LED.
public enum ConflictPolicy: Sendable, Hashable {
  /// Cancel it and stop there: running `send` again is an off switch (the default).
  case toggle
  /// Cancel it, then send (`--replace`).
  case replace
  /// Wait for it, and for senders that came earlier, then send (`--wait`, `--queue`).
  case wait
}
