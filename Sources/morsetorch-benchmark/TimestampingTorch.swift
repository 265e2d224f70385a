import Foundation
import Instants
import LEDDriver
import LinuxSystem
import MorseCore
import DeviceContract
import MorsePlayer

/// Wraps a torch and notes the monotonic time right after each switch.
final class TimestampingTorch: Torch {
  private let inner: any Torch
  private let clock = SystemStepClock()
  private(set) var times: [MonotonicInstant] = []

  init(_ inner: any Torch) {
    self.inner = inner
    times.reserveCapacity(4096)
  }

  func set(_ isOn: Bool) throws {
    try inner.set(isOn)
    times.append(clock.now())
  }

  func restore() throws { try inner.restore() }
}
