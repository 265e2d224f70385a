import LinuxSystem

/// The runtime directory, a lock or a state record could not be used.
public enum ControlError: Error, Hashable, CustomStringConvertible {
  /// The directory could not be made or examined.
  case directory(path: String, errno: Errno)
  /// The directory is not safe to keep locks in.
  case unsafeDirectory(path: String, reason: String)
  /// A lock or record file could not be used.
  case file(operation: String, path: String, errno: Errno)
  /// A file in the directory is not what morsetorch made.
  case unsafeFile(path: String, reason: String)
  /// Another transmitter did not stop when asked.
  case holderDidNotStop(pid: Int32, device: String, reason: String)

  /// What went wrong and what to do.
  public var description: String {
    let fix =
      "set \(RuntimeDirectory.environmentVariable) to a directory only you can write, "
      + "or create \(RuntimeDirectory.systemPath) (see README: Permissions)"
    switch self {
    case .directory(let path, let errno):
      return "cannot use the runtime directory \(path): \(errno); \(fix)"
    case .unsafeDirectory(let path, let reason):
      return "refusing the runtime directory \(path): \(reason); \(fix)"
    case .file(let operation, let path, let errno):
      return "cannot \(operation) \(path): \(errno)"
    case .unsafeFile(let path, let reason):
      return "refusing \(path): \(reason); remove it if you did not expect it"
    case .holderDidNotStop(let pid, let device, let reason):
      return "the transmission on \(device) (pid \(pid)) did not stop when asked: \(reason)"
    }
  }
}
