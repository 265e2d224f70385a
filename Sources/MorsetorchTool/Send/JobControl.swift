import LinuxSystem
import DeviceContract
import Synchronization

/// Ctrl-Z and `fg` for a transmission: on a stopping signal (SIGTSTP, or SIGTTIN/SIGTTOU for a
/// background job at its terminal) the device is put back as it was found, then the process
/// stops by that signal; when it is continued, the device is taken again and the transmission
/// goes on (the scheduler moves the rest of its schedule by the time stopped).
final class JobControl: Sendable {
  private let torch = Mutex<SharedTorch?>(nil)
  private let cancellation: Cancellation

  /// Job control for the transmission `cancellation` stops.
  init(cancellation: Cancellation) {
    self.cancellation = cancellation
  }

  /// From now on a stop puts `torch` back first.
  func manage(_ torch: any Torch) {
    let shared = SharedTorch(torch: torch)
    self.torch.withLock { $0 = shared }
  }

  /// From now on the process stops with nothing to put back (the device is restored).
  func release() {
    torch.withLock { $0 = nil }
  }

  /// The signals it handles: the stopping ones, and SIGCONT (which `handle` only has to
  /// take: its catching alone tells a stop that comes late that it was continued).
  static let signals = Signals.stopping + [Signals.continue]

  /// Handles `signal` if it is one of `signals`; returns whether it was.
  func handle(_ signal: Int32) -> Bool {
    if signal == Signals.continue { return true }
    guard Signals.stopping.contains(signal) else { return false }
    // Continued already (a SIGCONT came right after): nothing to stop, nothing to put back.
    if SignalCatcher.isContinuedSinceLastStop { return true }
    let torch = self.torch.withLock { $0 }?.torch
    // A device that cannot be put back (unplugged) ends the transmission when it goes on.
    do {
      try torch?.suspend()
    } catch {
      cancellation.fail(error)
    }
    // Not if it was continued since: a SIGTSTP and a SIGCONT a moment later leave it going.
    Signals.stopThisProcess(with: signal) { SignalCatcher.isContinuedSinceLastStop }
    // Continued by `stop` or a rerun (SIGTERM, then SIGCONT: its handler has run by now), the
    // transmission ends: the device stays as it was found rather than blinking back on.
    guard !cancellation.isCancelled else { return true }
    do {
      try torch?.resume()
    } catch {
      cancellation.fail(error)
    }
    return true
  }
}

/// A torch handed to the signal watcher's thread: the torches that can be suspended order
/// `suspend`, `resume`, `set` and `restore` with a lock of their own (SysfsTorch, GPIOTorch;
/// a group only calls its members), as `Torch.suspend()` asks.
private final class SharedTorch: @unchecked Sendable {
  let torch: any Torch
  init(torch: any Torch) { self.torch = torch }
}
