import LinuxSystem

/// A limit of the system (descriptors, processes, memory) that stopped the tool: not a fault
/// of its own (70), nor of its input; `ulimit` says which limit.
enum SystemLimitError: Error, Hashable, CustomStringConvertible {
  /// The command line could not be read: no argument, and /proc/self/cmdline not open.
  case commandLineUnreadable(Errno)
  /// `pthread_create` refused a thread.
  case threadUnavailable(Errno)
  /// A descriptor (a pipe, a signal's) could not be had.
  case noDescriptor(Errno)

  /// What failed, the system's words for it, and the limit that may be the cause.
  var description: String {
    switch self {
    case .commandLineUnreadable(let errno):
      return "cannot read the arguments from /proc/self/cmdline: \(errno)" + Self.advice(errno)
    case .threadUnavailable(let errno):
      return "cannot start a thread: \(errno); the limit on processes (ulimit -u) or memory "
        + "(ulimit -v) may be too low"
    case .noDescriptor(let errno):
      return "cannot open a file descriptor: \(errno)" + Self.advice(errno)
    }
  }

  /// "; " and the limit behind a descriptor refused with `errno`, if it says which.
  private static func advice(_ errno: Errno) -> String {
    descriptorLimit(for: errno).map { "; " + $0 } ?? ""
  }

  /// The limit behind a descriptor refused with `errno` ("the limit on open files (ulimit
  /// -n) may be too low"); nil for another error.
  static func descriptorLimit(for errno: Errno) -> String? {
    switch errno {
    case .tooManyOpenFiles: return "the limit on open files (ulimit -n) may be too low"
    case .tooManyOpenFilesInSystem: return "the system's limit on open files was reached"
    default: return nil
    }
  }

  /// The error an `Errno` that no area wrapped stands for, if it is a limit: such an error is
  /// a thread, a pipe or a signal's descriptor that could not be had, and `EAGAIN` comes only
  /// from `pthread_create` there (every other call handles its own where it happens).
  init?(unwrapped errno: Errno) {
    switch errno {
    case .wouldBlock: self = .threadUnavailable(errno)
    case .tooManyOpenFiles, .tooManyOpenFilesInSystem: self = .noDescriptor(errno)
    default: return nil
    }
  }
}
