import Glibc
import LinuxSystem
import MorsePlayer

/// Turns asynchronous signals into calls on an ordinary thread.
///
/// The system layer's `SignalCatcher` does the async-signal-safe part: its handler records
/// the first signal, fires the transmission's cancellation at once (so the waiting step wakes
/// straight from the signal) and passes the number on through a pipe. A watcher thread reads
/// it and calls `handler`, where any work is safe. The signals are a parameter, so tests use
/// `SIGUSR1` and never disturb the test runner with `SIGINT`.
final class SignalWatcher: Sendable {
  /// Every signal whose default action ends the process and that can be caught: sending,
  /// previewing and waiting for an LED watch them all, so any of them puts the LED back first.
  ///
  /// From signal(7): the "Term" and "Core" signals sent from outside the process, and the
  /// real-time signals (SIGRTMIN to SIGRTMAX, whose default is "Term"). Left out: SIGKILL
  /// and SIGSTOP (they cannot be caught), SIGPIPE (ignored: a closed pipe is an `EPIPE` we
  /// handle), and the synchronous crash signals SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
  /// SIGTRAP and SIGSYS, which belong to the Swift runtime (its crash report).
  static let stoppingSignals: [Int32] =
    [
      SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO,
      SIGPWR, SIGXCPU, SIGXFSZ, SIGSTKFLT,
    ] + Array(__libc_current_sigrtmin()...__libc_current_sigrtmax())

  private let catcher: SignalCatcher

  /// Starts watching `signals`, calling `handler` with each one's number as it arrives; with
  /// `cancelling`, the signal handler itself fires that cancellation first. A signal that is
  /// ignored when the watcher starts (as `nohup` leaves SIGHUP) stays ignored. Only one watcher
  /// may run in a process at a time.
  init(
    signals: [Int32], cancelling cancellation: Cancellation? = nil,
    handler: @escaping @Sendable (Int32) -> Void
  ) throws(Errno) {
    let catcher = try SignalCatcher(signals: signals, firing: cancellation?.event)
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
