import Glibc

/// The flags of `open(2)` that morsetorch uses. `O_CLOEXEC` is always added.
public struct OpenOptions: OptionSet, Sendable {
  /// The raw flags.
  public let rawValue: Int32

  /// Flags from their raw value.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// `O_RDONLY` (the empty set).
  public static let readOnly: OpenOptions = []
  /// `O_WRONLY`.
  public static let writeOnly = OpenOptions(rawValue: O_WRONLY)
  /// `O_RDWR`.
  public static let readWrite = OpenOptions(rawValue: O_RDWR)
  /// `O_CREAT`.
  public static let create = OpenOptions(rawValue: O_CREAT)
  /// `O_EXCL`.
  public static let exclusive = OpenOptions(rawValue: O_EXCL)
  /// `O_TRUNC`.
  public static let truncate = OpenOptions(rawValue: O_TRUNC)
  /// `O_NONBLOCK`: never wait in `open(2)` itself, as opening a FIFO planted where a file was
  /// expected would (until someone opens its other end).
  public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
  /// `O_DIRECTORY`: fail with `ENOTDIR` unless the path is a directory.
  public static let directory = OpenOptions(rawValue: O_DIRECTORY)
  /// `O_NOCTTY`: a terminal opened never becomes the process's controlling terminal.
  public static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
  /// `O_NOFOLLOW`: fail with `ELOOP` rather than follow a symlink in the last component.
  public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
}
