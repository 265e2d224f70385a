import Instants
import LinuxSystem

/// Notices an LED that disappears (unplugged, driver unloaded) while the transmission waits
/// between two writes, by looking for its `brightness` every `interval`.
final class PresenceWatch: Sendable {
  private let stopped = OneShotEvent()

  /// Starts watching `led` on a thread of its own; `onVanish` is called once if it goes.
  init(
    led: LED, interval: Duration = .milliseconds(100),
    onVanish: @escaping @Sendable (LEDError) -> Void
  ) throws(Errno) {
    let path = led.attributePath(LED.brightnessAttribute)
    try Threads.start { [stopped] in
      while stopped.wait(untilMonotonic: MonotonicTime.now() + interval) {
        guard !FileSystem.exists(path) else { continue }
        onVanish(.vanished(path: path, errno: .noSuchFile))
        return
      }
    }
  }

  /// Stops watching.
  func stop() {
    stopped.fire()
  }
}
