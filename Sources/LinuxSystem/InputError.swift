
/// The input could not be read.
public enum InputError: Error, Hashable, CustomStringConvertible {
  /// `read(2)` on standard input (or the file being read) failed.
  case readFailed(Errno)
  /// The file to read could not be opened.
  case cannotOpen(path: String, errno: Errno)

  /// What failed, with the system's words for it.
  public var description: String {
    switch self {
    case .readFailed(let errno): return "cannot read standard input: \(errno)"
    case .cannotOpen(let path, let errno): return "cannot open \(shown: path): \(errno)"
    }
  }
}
