import CLinuxSystem
import Glibc

/// The signals the layers above name, by number, so that they need not import Glibc.
public enum Signals {
  /// `SIGTERM`: what `kill` sends by default, and what a stop request counts as.
  public static let terminate = SIGTERM
  /// `SIGPIPE`: a write to a pipe whose reader has gone.
  public static let brokenPipe = SIGPIPE

  /// Every signal whose default action ends the process and that can be caught: a sender, a
  /// preview, a receiver and a wait for an LED watch them all, so any of them puts the device
  /// back first.
  ///
  /// From signal(7): the "Term" and "Core" signals sent from outside the process, and the
  /// real-time signals (SIGRTMIN to SIGRTMAX, whose default is "Term"). Left out: SIGKILL
  /// and SIGSTOP (they cannot be caught), SIGPIPE (ignored: a closed pipe is an `EPIPE` we
  /// handle), and the synchronous crash signals SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
  /// SIGTRAP and SIGSYS, which belong to the Swift runtime (its crash report).
  public static let terminating: [Int32] =
    [
      SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO,
      SIGPWR, SIGXCPU, SIGXFSZ, SIGSTKFLT,
    ] + Array(__libc_current_sigrtmin()...__libc_current_sigrtmax())

  /// The signals that stop a process by default and can be caught: Ctrl-Z (SIGTSTP), and a
  /// background job's read or write at its terminal (SIGTTIN, SIGTTOU). A sender puts its
  /// device back, then stops itself (`stopThisProcess`).
  public static let stopping: [Int32] = [SIGTSTP, SIGTTIN, SIGTTOU]
  /// `SIGCONT`: the process was continued (`fg`, `bg`, `kill -CONT`).
  public static let `continue` = SIGCONT

  /// Stops this process with `signal` (one of `stopping`) taking its default course, as if it
  /// had not been caught, so the shell sees the job stopped by it; returns once the process is
  /// continued, with the signal caught again — or at once, not stopping, when `isContinued`
  /// says a SIGCONT came after the stopping signal this answers.
  ///
  /// A SIGCONT can come at any moment, also between that check and the stop, where a plain
  /// `raise(3)` would stop the process after its continue and leave it stopped for good. So
  /// the signal is first made pending on this thread while blocked here, then checked, then
  /// unblocked: the kernel discards a pending stopping signal when a SIGCONT is sent
  /// (signal(7)), so one sent after it is made pending leaves nothing to take, and one sent
  /// before is the check's to see (`SignalCatcher.isContinuedSinceLastStop`). When the check
  /// says continued, the pending signal is let through ignored (SIG_IGN), which discards it:
  /// the kernel at once, and an emulator such as qemu-user, which keeps a guest's pending
  /// signals itself, when it delivers it. (What no check can see: a SIGCONT another thread
  /// has taken from the kernel, whose handler has not yet run its first instruction.)
  public static func stopThisProcess(with signal: Int32, unless isContinued: () -> Bool) {
    var only = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, signal)
    var mask = sigset_t()
    pthread_sigmask(SIG_BLOCK, &only, &mask)
    defer { pthread_sigmask(SIG_SETMASK, &mask, nil) }
    var caught = sigaction()
    // No handler: the default action (SIG_DFL).
    guard morse_signal_install(signal, nil, &caught) == 0 else { return }
    defer { _ = morse_signal_restore(signal, &caught) }
    _ = pthread_kill(pthread_self(), signal)
    // Continued: discarded, not delivered (if a SIGCONT has not discarded it already).
    if isContinued() { _ = morse_signal_ignore(signal) }
    // Delivered here, before the call returns: the process stops (unless ignored).
    pthread_sigmask(SIG_UNBLOCK, &only, nil)
  }

  /// The names of the signals with one of their own.
  private static let names: [Int32: String] = [
    SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGTERM: "SIGTERM",
    SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2", SIGALRM: "SIGALRM", SIGVTALRM: "SIGVTALRM",
    SIGPROF: "SIGPROF", SIGIO: "SIGIO", SIGPWR: "SIGPWR", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
    SIGSTKFLT: "SIGSTKFLT", SIGPIPE: "SIGPIPE", SIGKILL: "SIGKILL", SIGTSTP: "SIGTSTP",
    SIGTTIN: "SIGTTIN", SIGTTOU: "SIGTTOU", SIGCONT: "SIGCONT", SIGSTOP: "SIGSTOP",
  ]

  /// "SIGTERM" for 15, "SIGRTMIN+3" for the fourth real-time signal, and so on; "signal N"
  /// for a number that names none of those.
  public static func name(_ signal: Int32) -> String {
    if let name = names[signal] { return name }
    let first = __libc_current_sigrtmin()
    let last = __libc_current_sigrtmax()
    if signal == first { return "SIGRTMIN" }
    if signal == last { return "SIGRTMAX" }
    if signal > first && signal < last { return "SIGRTMIN+\(signal - first)" }
    return "signal \(signal)"
  }

  /// Ignores `SIGPIPE`, so that a closed pipe on standard output or error is an `EPIPE` the
  /// caller handles rather than a silent death.
  public static func ignoreBrokenPipes() {
    signal(SIGPIPE, SIG_IGN)
  }
}
