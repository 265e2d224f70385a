import CLinuxSystem
import Glibc
import Synchronization

/// The write end of the catcher's pipe, for the handler below; -1 when no catcher runs.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1
/// The first signal the handler saw since the catcher started; 0 for none.
private let firstSignalNumber = Atomic<Int32>(0)
/// The signal whose handler fired the event (before anything else did); 0 for none.
private let firingSignalNumber = Atomic<Int32>(0)
/// The signals (bit N for signal N) the handler only passes on: no record, no firing.
private let passedSignals = Atomic<UInt64>(0)
/// The SIGCONTs the handler has seen.
private let continuations = Atomic<UInt64>(0)
/// `continuations` when the handler saw the last stopping signal (`Signals.stopping`).
private let continuationsAtLastStop = Atomic<UInt64>(0)
/// The event the handler fires itself; nil when there is none.
nonisolated(unsafe) private var signalEvent: UnsafeMutablePointer<morse_event>?

/// The signal handler: async-signal-safe calls only (an atomic exchange, `sem_post`, `write`).
private func catchSignal(_ number: Int32) {
  let savedErrno = errno
  // Counted first, before anything can delay it: a stop that answers an earlier stopping
  // signal must see a continue that came after that signal. The stopping signals are named
  // here, not read from `Signals.stopping`: a global's first use may allocate, which a
  // signal handler must not.
  if number == SIGCONT {
    continuations.add(1, ordering: .sequentiallyConsistent)
  } else if number == SIGTSTP || number == SIGTTIN || number == SIGTTOU {
    continuationsAtLastStop.store(
      continuations.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
  }
  var byte = UInt8(truncatingIfNeeded: number)
  if number < 64, passedSignals.load(ordering: .sequentiallyConsistent) & (1 << UInt64(number)) != 0 {
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = savedErrno
    return
  }
  _ = firstSignalNumber.compareExchange(
    expected: 0, desired: number, ordering: .sequentiallyConsistent)
  if let event = signalEvent, morse_event_fire(event) == 1 {
    firingSignalNumber.store(number, ordering: .sequentiallyConsistent)
  }
  _ = write(signalPipeWriteEnd, &byte, 1)
  errno = savedErrno
}

/// Catches signals with a `sigaction` handler that records the first one, fires an event
/// at once (so a waiting transmission wakes straight from the signal), and writes the number
/// into a pipe that `nextSignal()` reads on an ordinary thread.
///
/// A signal whose disposition is "ignore" when the catcher starts (as `nohup` leaves SIGHUP)
/// is left ignored; the caught ones are unblocked, in case a parent started us with them
/// blocked. Only one catcher may run in a process at a time.
public final class SignalCatcher: @unchecked Sendable {
  private let readEnd: FileDescriptor
  private let event: OneShotEvent?
  private var previousActions: [Int32: sigaction] = [:]
  private var isStopped = false

  /// Starts catching `signals`; the handler fires `event` too, when given. The `passing`
  /// signals (job control: SIGTSTP, SIGCONT) are only passed on to `nextSignal()`: they fire
  /// nothing and are no `firstSignal`.
  public init(
    signals: [Int32], passing: [Int32] = [], firing event: OneShotEvent? = nil
  ) throws(Errno) {
    let pipe = try Pipe()
    self.event = event
    signalEvent = event?.storage
    firstSignalNumber.store(0, ordering: .sequentiallyConsistent)
    firingSignalNumber.store(0, ordering: .sequentiallyConsistent)
    passedSignals.store(
      passing.reduce(0) { $1 < 64 ? $0 | 1 << UInt64($1) : $0 }, ordering: .sequentiallyConsistent)
    readEnd = pipe.readEnd
    // The write end now belongs to the handler; `stop()` closes it.
    signalPipeWriteEnd = pipe.writeEnd.releaseOwnership()
    var unblock = sigset_t()
    sigemptyset(&unblock)
    for signal in signals + passing where morse_signal_is_ignored(signal) == 0 {
      var previous = sigaction()
      guard morse_signal_install(signal, catchSignal, &previous) == 0 else { continue }
      previousActions[signal] = previous
      sigaddset(&unblock, signal)
    }
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
  }

  deinit {
    stop()
  }

  /// The first caught signal, recorded by the handler itself (so it is known as soon as the
  /// event it fired is seen); nil if none has come.
  public var firstSignal: Int32? {
    let number = firstSignalNumber.load(ordering: .sequentiallyConsistent)
    return number == 0 ? nil : number
  }

  /// The signal that fired the event itself — the one that stopped what the event stops —
  /// nil if something else fired it first (or no signal came). Later signals of a storm
  /// never replace it.
  public var firingSignal: Int32? {
    let number = firingSignalNumber.load(ordering: .sequentiallyConsistent)
    return number == 0 ? nil : number
  }

  /// Whether a SIGCONT was caught after the last stopping signal (SIGTSTP, SIGTTIN, SIGTTOU):
  /// a stop that answers it now would outlive the continue (`Signals.stopThisProcess`).
  /// (Of the process: its handler counts them for whichever catcher runs.)
  public static var isContinuedSinceLastStop: Bool {
    continuations.load(ordering: .sequentiallyConsistent)
      != continuationsAtLastStop.load(ordering: .sequentiallyConsistent)
  }

  /// Blocks until a signal is caught and returns its number; nil once stopped.
  public func nextSignal() -> Int32? {
    var byte: UInt8 = 0
    let count = try? withUnsafeMutableBytes(of: &byte) { buffer in
      try readEnd.read(into: buffer)
    }
    return count == 1 ? Int32(byte) : nil
  }

  /// Puts back the previous actions (signals arriving later take their old course) and ends
  /// `nextSignal()`.
  public func stop() {
    // Once only: a later catcher owns the globals by then.
    guard !isStopped else { return }
    isStopped = true
    signalEvent = nil
    for (signal, previous) in previousActions {
      var action = previous
      morse_signal_restore(signal, &action)
    }
    previousActions = [:]
    if signalPipeWriteEnd >= 0 {
      Glibc.close(signalPipeWriteEnd)
      signalPipeWriteEnd = -1
    }
  }
}
