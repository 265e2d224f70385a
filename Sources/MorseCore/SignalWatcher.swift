import Glibc
import Synchronization

/// The write end of the self-pipe, read by the handler below; -1 when no watcher runs.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1
/// The first signal the handler saw since the watcher started; 0 for none.
private let firstSignalNumber = Atomic<Int32>(0)
/// The cancellation the handler fires itself, unretained; nil when there is none.
nonisolated(unsafe) private var signalCancellation: UnsafeMutableRawPointer?

/// Turns asynchronous signals into calls on an ordinary thread.
///
/// A `sigaction` handler only writes the signal's number into a pipe (`write(2)` is
/// async-signal-safe); a watcher thread reads it and calls the handler, where any work —
/// cancelling a transmission, restoring an LED — is safe. The signals are a parameter, so
/// tests use `SIGUSR1` and never disturb the test runner with `SIGINT`.
public final class SignalWatcher: @unchecked Sendable {
  private let signals: [Int32]
  private let cancellation: Cancellation?
  private var previousActions: [Int32: sigaction] = [:]
  private var readEnd: Int32 = -1

  /// Starts watching `signals`, calling `handler` with each one's number as it arrives.
  ///
  /// With `cancelling`, the signal handler itself also fires that cancellation (atomically,
  /// async-signal-safe), so a waiting transmission wakes at once rather than after the
  /// watcher thread has run; `handler` still follows. A signal whose disposition is "ignore"
  /// when the watcher starts (as `nohup` leaves SIGHUP) is left ignored. Only one watcher may
  /// run in a process at a time.
  public init(
    signals: [Int32], cancelling cancellation: Cancellation? = nil,
    handler: @escaping @Sendable (Int32) -> Void
  ) throws {
    self.signals = signals
    self.cancellation = cancellation
    signalCancellation = cancellation.map { Unmanaged.passUnretained($0).toOpaque() }
    firstSignalNumber.store(0, ordering: .sequentiallyConsistent)
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw SignalWatcherError.pipeFailed(errno: errno)
    }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    readEnd = ends[0]
    signalPipeWriteEnd = ends[1]
    var unblock = sigset_t()
    sigemptyset(&unblock)
    for signal in signals {
      var current = sigaction()
      sigaction(signal, nil, &current)
      // A signal the parent set to be ignored stays ignored: `nohup morsetorch send …` must
      // survive the hangup, as with any well-behaved program.
      if unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
        == unsafeBitCast(SIG_IGN, to: Int.self)
      {
        continue
      }
      sigaddset(&unblock, signal)
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { number in
        var byte = UInt8(truncatingIfNeeded: number)
        let savedErrno = errno
        _ = firstSignalNumber.compareExchange(
          expected: 0, desired: number, ordering: .sequentiallyConsistent)
        if let target = signalCancellation {
          // Unretained and guaranteed alive by the watcher: no retain, no allocation here.
          Unmanaged<Cancellation>.fromOpaque(target)._withUnsafeGuaranteedRef {
            $0.fireFromSignalHandler()
          }
        }
        _ = write(signalPipeWriteEnd, &byte, 1)
        errno = savedErrno
      }
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      var previous = sigaction()
      sigaction(signal, &action, &previous)
      previousActions[signal] = previous
    }
    // A parent may have started us with these signals blocked (a thread of a test runner,
    // some supervisors): unblock them, or the handler would never run.
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    let readEnd = self.readEnd
    startThread {
      var byte: UInt8 = 0
      while true {
        let count = read(readEnd, &byte, 1)
        if count == 1 {
          handler(Int32(byte))
        } else if count == 0 || (count < 0 && errno != EINTR) {
          close(readEnd)
          return
        }
      }
    }
  }

  /// The first watched signal that arrived, recorded by the handler itself (so it is known
  /// as soon as the cancellation it fired is seen); nil if none has.
  public var firstSignal: Int32? {
    let number = firstSignalNumber.load(ordering: .sequentiallyConsistent)
    return number == 0 ? nil : number
  }

  /// Puts back the previous handlers; signals arriving later take their old course.
  public func stop() {
    signalCancellation = nil
    for signal in signals {
      guard var previous = previousActions[signal] else { continue }
      sigaction(signal, &previous, nil)
    }
    previousActions = [:]
    if signalPipeWriteEnd >= 0 {
      close(signalPipeWriteEnd)
      signalPipeWriteEnd = -1
    }
  }

  deinit {
    stop()
  }
}

/// The signal watcher could not start.
public enum SignalWatcherError: Error, Hashable, CustomStringConvertible {
  /// `pipe(2)` failed.
  case pipeFailed(errno: Int32)

  /// What failed, with the system's words for it.
  public var description: String {
    switch self {
    case .pipeFailed(let code):
      return "cannot watch for signals: pipe failed: \(String(cString: strerror(code)))"
    }
  }
}
