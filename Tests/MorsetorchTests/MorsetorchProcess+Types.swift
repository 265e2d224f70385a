import Foundation

extension MorsetorchProcess {
  /// How the executable is started.
  enum Launch {
    /// `morsetorch ARGUMENTS…`.
    case direct
    /// `morsetorch ARGUMENTS… RAW`, with a last argument of raw bytes (not necessarily UTF-8),
    /// passed through `/bin/sh` because `Foundation.Process` only takes `String` arguments.
    case rawLastArgument([UInt8])
    /// As user and group `nobody` through `setpriv(1)` when the tests run as root (root may
    /// write any file, so a permission error needs another user); directly otherwise.
    case unprivileged
    /// As user `nobody` in group `nogroup` (65534) through `setpriv(1)`, in a runtime directory
    /// the test shares with that group (see `sharedRuntimeDirectory`): another member of the
    /// LED group, who may not signal root's processes.
    case groupMember
    /// `morsetorch ARGUMENTS… >&-`: with standard output closed, through `/bin/sh`.
    case outputClosed
    /// Through bash, after its command `prefix` (`ulimit -n 4`, `exec <&-`); as user nobody
    /// (through setpriv(1), before bash) when `asNobody` and the tests run as root.
    case shell(_ prefix: String, asNobody: Bool = false)
    /// Under `script(1)`, whose pseudo-terminal becomes the child's standard output and
    /// error (both then arrive on `standardOutput`).
    case underTerminal
  }

  /// Which build of the tool runs.
  enum Tool: String {
    /// `morsetorch`, as it ships: the kernel's GPIO chips only.
    case shipped = "morsetorch"
    /// `morsetorch-simulated-gpio`: the same tool that also takes a directory of plain files
    /// for a GPIO chip (`TemporaryGPIODirectory`).
    case simulatedGPIO = "morsetorch-simulated-gpio"
  }

  /// What a finished run left behind.
  struct Outcome: Sendable, CustomStringConvertible {
    /// The exit status, or the signal number when `reason` is `.uncaughtSignal`.
    let status: Int32
    /// Whether the child exited or was killed by a signal.
    let reason: Process.TerminationReason
    /// Everything written to standard output.
    let standardOutput: String
    /// Everything written to standard error.
    let standardError: String
    /// From the start of the child to its end, as seen by the test.
    let elapsed: Duration

    /// The exit status when the child exited by itself; nil when a signal killed it.
    var exitStatus: Int32? { reason == .exit ? status : nil }

    var description: String {
      "\(reason == .exit ? "exit status" : "killed by signal") \(status) after \(elapsed)\n"
        + "stdout: \(standardOutput.debugDescription)\nstderr: \(standardError.debugDescription)"
    }
  }

  /// Why the helper could not run the executable to its end.
  enum Failure: Error, CustomStringConvertible {
    case executableMissing(searched: [String])
    case timedOut(arguments: [String], after: Duration, standardError: String)
    case cannotIgnoreSignals

    var description: String {
      switch self {
      case .executableMissing(let searched):
        return "the built morsetorch executable is not next to the test bundle (looked at "
          + "\(searched.joined(separator: ", "))); build it with "
          + "`swift build --build-tests` before running the tests"
      case .timedOut(let arguments, let after, let standardError):
        return "morsetorch \(arguments.joined(separator: " ")) did not end within \(after) and "
          + "was killed; its standard error so far: \(standardError.debugDescription)"
      case .cannotIgnoreSignals:
        return "env(1) here cannot start a child with signals ignored (needs coreutils 8.31)"
      }
    }
  }
}
