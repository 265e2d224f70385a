import Glibc

/// The write end of the self-pipe, read by the handler below; -1 when no watcher runs.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Turns asynchronous signals into calls on an ordinary thread.
///
/// A `sigaction` handler only writes the signal's number into a pipe (`write(2)` is
/// async-signal-safe); a watcher thread reads it and calls the handler, where any work —
/// cancelling a transmission, restoring an LED — is safe. The signals are a parameter, so
/// tests use `SIGUSR1` and never disturb the test runner with `SIGINT`.
public final class SignalWatcher: @unchecked Sendable {
  private let signals: [Int32]
  private var previousActions: [Int32: sigaction] = [:]
  private var readEnd: Int32 = -1

  /// Starts watching `signals`, calling `handler` with each one's number as it arrives.
  ///
  /// A signal whose disposition is "ignore" when the watcher starts (as `nohup` leaves
  /// SIGHUP) is left ignored. Only one watcher may run in a process at a time.
  public init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) throws {
    self.signals = signals
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

  /// Puts back the previous handlers; signals arriving later take their old course.
  public func stop() {
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
