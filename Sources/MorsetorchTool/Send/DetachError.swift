import LinuxSystem

/// The background copy could not be started.
enum DetachError: Error, Hashable, CustomStringConvertible {
  /// The path of this executable could not be found (/proc not mounted?).
  case noExecutable
  /// `posix_spawn` or a pipe failed.
  case cannotStart(Errno)

  /// What failed.
  var description: String {
    switch self {
    case .noExecutable:
      return "cannot --detach: the path of this program is unknown (is /proc mounted?)"
    case .cannotStart(let errno):
      return "cannot --detach: starting the background copy failed: \(errno)"
    }
  }
}
