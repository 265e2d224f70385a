import DeviceContract
import Synchronization

/// A GPIO output line switched as a torch: on is active, off inactive. Restoring drives it
/// inactive and releases it (what the line does after that is up to the chip's driver: it
/// may keep the level, float, or follow its pull).
public final class GPIOTorch: Torch, Sendable {
  private let output: any GPIOOutput
  private let state = Mutex(State())

  private struct State {
    var isRestored = false
    /// Between `suspend()` and `resume()`: the line is kept inactive.
    var isSuspended = false
    /// The level last asked for.
    var isOn = false
  }

  /// The torch on a requested `output`.
  public init(output: any GPIOOutput) {
    self.output = output
  }

  /// Drives the line; does nothing once restored, and only remembers the level while
  /// suspended.
  public func set(_ isOn: Bool) throws(GPIOError) {
    try state.withLock { state throws(GPIOError) in
      state.isOn = isOn
      if state.isRestored || state.isSuspended { return }
      try output.set(isOn)
    }
  }

  /// Drives the line inactive, then releases it. Idempotent.
  public func restore() throws(GPIOError) {
    try state.withLock { state throws(GPIOError) in
      if state.isRestored { return }
      state.isRestored = true
      defer { output.release() }
      try output.set(false)
    }
  }

  /// Drives the line inactive and keeps it so until `resume()` (the line stays requested:
  /// another program could not have it meanwhile anyway).
  public func suspend() throws(GPIOError) {
    try state.withLock { state throws(GPIOError) in
      if state.isRestored || state.isSuspended { return }
      state.isSuspended = true
      try output.set(false)
    }
  }

  /// Drives the line to the level last asked for.
  public func resume() throws(GPIOError) {
    try state.withLock { state throws(GPIOError) in
      if state.isRestored || !state.isSuspended { return }
      state.isSuspended = false
      try output.set(state.isOn)
    }
  }
}
