import MorsePlayer
import Synchronization

/// A GPIO output line switched as a torch: on is active, off inactive. Restoring drives it
/// inactive and releases it (what the line does after that is up to the chip's driver: it
/// may keep the level, float, or follow its pull).
public final class GPIOTorch: Torch, Sendable {
  private let output: any GPIOOutput
  private let isRestored = Mutex(false)

  /// The torch on a requested `output`.
  public init(output: any GPIOOutput) {
    self.output = output
  }

  /// Drives the line; does nothing once restored.
  public func set(_ isOn: Bool) throws(GPIOError) {
    try isRestored.withLock { isRestored throws(GPIOError) in
      if isRestored { return }
      try output.set(isOn)
    }
  }

  /// Drives the line inactive, then releases it. Idempotent.
  public func restore() throws(GPIOError) {
    try isRestored.withLock { isRestored throws(GPIOError) in
      if isRestored { return }
      isRestored = true
      defer { output.release() }
      try output.set(false)
    }
  }
}
