import CLinuxSystem
import Glibc
import Instants

/// A process, held by a pidfd where the kernel offers one (Linux 5.3).
///
/// A pidfd names one process for as long as it is open, even after its number is reused:
/// signalling through it can never hit a stranger that inherited the pid.
public struct ProcessHandle: ~Copyable {
  /// The process ID.
  public let pid: Int32
  private let descriptor: FileDescriptor?

  /// `pidfd_open(2)`; on a kernel without pidfds, a handle that falls back to the bare pid.
  public init(pid: Int32) throws(Errno) {
    self.pid = pid
    let raw = morse_pidfd_open(pid)
    if raw >= 0 {
      descriptor = FileDescriptor(owning: raw)
    } else if errno == ENOSYS {
      descriptor = nil
    } else {
      throw Errno.current
    }
  }

  private var pidfdNumber: Int32? {
    switch descriptor {
    case .some(let pidfd): pidfd.rawValue
    case .none: nil
    }
  }

  /// `pidfd_send_signal(2)`, or `kill(2)` where pidfds are missing.
  /// Whether a process `pid` is there (`kill(pid, 0)`: it exists even if it is another
  /// user's, whom no signal may reach).
  public static func isRunning(_ pid: Int32) -> Bool {
    pid > 0 && (Glibc.kill(pid, 0) == 0 || errno == EPERM)
  }

  public func send(_ signal: Int32) throws(Errno) {
    if let raw = pidfdNumber {
      _ = try SystemCall.retryingOnInterrupt { morse_pidfd_send_signal(raw, signal) }
    } else {
      _ = try SystemCall.retryingOnInterrupt { Glibc.kill(pid, signal) }
    }
  }

  /// Asks the process to stop: SIGTERM.
  public func terminate() throws(Errno) { try send(SIGTERM) }

  /// Ends the process at once: SIGKILL.
  public func kill() throws(Errno) { try send(SIGKILL) }

  /// Lets a stopped process (SIGSTOP, Ctrl-Z) run again, to act on a signal: SIGCONT.
  public func resume() throws(Errno) { try send(SIGCONT) }

  /// Whether the process is stopped (state `T` in `/proc/PID/stat`): it runs no code, not
  /// even a signal handler, until it gets SIGCONT.
  public var isStopped: Bool { ProcessFacts.isStopped(pid) }

  /// Waits up to `timeout` for the process to exit, unless `giveUp` fires first (looked at
  /// every 50 ms); whether it exited.
  public func waitForExit(timeout: Duration, unless giveUp: OneShotEvent?) -> Bool {
    let deadline = MonotonicTime.now() + timeout
    while giveUp?.isFired != true {
      let left = deadline - MonotonicTime.now()
      guard left > .zero else { return false }
      if waitForExit(timeout: min(left, .milliseconds(50))) { return true }
    }
    return false
  }

  /// Waits up to `timeout` for the process to exit; whether it did.
  public func waitForExit(timeout: Duration) -> Bool {
    switch descriptor {
    case .some(let pidfd): return pidfd.waitUntilReadable(timeout: timeout)
    case .none: break
    }
    // No pidfd: ask kill(pid, 0) every millisecond.
    for _ in 0..<max(1, timeout.wholeMilliseconds) {
      if Glibc.kill(pid, 0) != 0 && errno == ESRCH { return true }
      usleep(1000)
    }
    return false
  }
}
