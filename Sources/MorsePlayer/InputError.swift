import LinuxSystem

/// Standard input could not be read.
public enum InputError: Error, Hashable, CustomStringConvertible {
  /// `read(2)` on standard input failed.
  case readFailed(Errno)

  /// What failed, with the system's words for it.
  public var description: String {
    switch self {
    case .readFailed(let errno): return "cannot read standard input: \(errno)"
    }
  }
}
