import Foundation
import Instants
import LinuxSystem
import MorseCore
import DeviceContract
import MorsePlayer

/// A torch that stops the run once its virtual clock has passed `end`, counting switches.
final class CountingTorch: Torch {
  private let clock: VirtualStepClock
  private let end: MonotonicInstant
  private let cancellation: Cancellation
  private(set) var switches = 0

  init(clock: VirtualStepClock, end: MonotonicInstant, cancellation: Cancellation) {
    self.clock = clock
    self.end = end
    self.cancellation = cancellation
  }

  func set(_ isOn: Bool) {
    switches += 1
    if clock.now() > end { cancellation.cancel() }
  }

  func restore() {}
}
