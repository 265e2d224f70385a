import LinuxSystem

/// Turns asynchronous signals into calls on an ordinary thread.
///
/// The system layer's `SignalCatcher` does the async-signal-safe part: its handler records
/// the first signal, fires the transmission's cancellation at once (so the waiting step wakes
/// straight from the signal) and passes the number on through a pipe. A watcher thread reads
/// it and calls `handler`, where any work is safe. The signals are a parameter, so tests use
/// `SIGUSR1` and never disturb the test runner with `SIGINT`.
final class SignalWatcher: Sendable {
  private let catcher: SignalCatcher

  /// Starts watching `signals`, calling `handler` with each one's number as it arrives; with
  /// `cancelling`, the signal handler itself fires that cancellation first. A signal that is
  /// ignored when the watcher starts (as `nohup` leaves SIGHUP) stays ignored. Only one watcher
  /// may run in a process at a time.
  /// The `passing` signals (job control) reach `handler` too, but cancel nothing.
  init(
    signals: [Int32], passing: [Int32] = [], cancelling cancellation: Cancellation? = nil,
    handler: @escaping @Sendable (Int32) -> Void
  ) throws(Errno) {
    let catcher = try SignalCatcher(
      signals: signals, passing: passing, firing: cancellation?.event)
    self.catcher = catcher
    do throws(Errno) {
      try Threads.start {
        while let signal = catcher.nextSignal() { handler(signal) }
      }
    } catch {
      catcher.stop()
      throw error
    }
  }

  /// The first watched signal that arrived, recorded by the handler itself (so it is known
  /// as soon as the cancellation it fired is seen); nil if none has.
  var firstSignal: Int32? { catcher.firstSignal }

  /// The signal whose handler fired the cancellation first, if one did: what stopped the
  /// transmission, whatever came after it.
  var stoppingSignal: Int32? { catcher.firingSignal }

  /// Puts back the previous handlers; signals arriving later take their old course.
  func stop() {
    catcher.stop()
  }
}
