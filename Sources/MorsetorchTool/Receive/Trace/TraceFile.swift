import LinuxSystem

/// `receive --trace FILE`: where the picture of the reading goes, opened before reading
/// starts (so a path that cannot be written fails first) and written once, at the end, a row
/// at a time.
///
/// The file is opened non-blocking and without following a symlink in its last component,
/// then refused unless it is a regular file or a character device (`/dev/null`): the
/// picture is written whole at the end, and a FIFO's reader or a link's target is no place
/// for it. `-` is standard output, which then carries only the picture.
final class TraceFile {
  /// The file could not be made, is no file, or could not be written.
  enum Failure: Error, Hashable, CustomStringConvertible {
    case cannotCreate(path: String, errno: Errno)
    case notAFile(path: String)
    case cannotWrite(path: String, errno: Errno)

    var description: String {
      switch self {
      case .cannotCreate(let path, let errno): "cannot create \(shown: path) for --trace: \(errno)"
      case .notAFile(let path):
        "cannot write \(shown: path) (--trace): not a regular file (a FIFO or a symlink is refused)"
      case .cannotWrite(let path, let errno): "cannot write \(shown: path) (--trace): \(errno)"
      }
    }
  }

  private let path: String
  /// Nil: standard output (or written already).
  private var file: FileDescriptor?
  /// Whether it writes to standard output (where the text read then does not go).
  let isStandardOutput: Bool

  /// Creates (or empties) `path`, mode 0644; `-` is standard output.
  init(path: String) throws(Failure) {
    self.path = path
    isStandardOutput = path == "-"
    guard !isStandardOutput else {
      file = nil
      return
    }
    file = try Self.open(path)
  }

  /// `path` opened to be written: a regular file (or a character device), else refused.
  private static func open(_ path: String) throws(Failure) -> FileDescriptor {
    do throws(Errno) {
      let file = try FileDescriptor.open(
        path, [.writeOnly, .create, .truncate, .nonBlocking, .noFollow])
      let status = try file.status()
      // A FIFO with a reader, a socket: the same refusal as below.
      guard status.isRegularFile || status.isCharacterDevice else {
        throw Errno.noSuchDeviceOrAddress
      }
      return file
    } catch  where error == .noSuchDeviceOrAddress || error == .tooManySymbolicLinks {
      // ENXIO: a FIFO with no reader, opened non-blocking; ELOOP: a symlink (O_NOFOLLOW).
      throw .notAFile(path: path)
    } catch {
      throw .cannotCreate(path: path, errno: error)
    }
  }

  /// Writes `picture`, part by part (so its whole text is never held); once.
  func write(_ picture: TraceSVG) throws(Failure) {
    if isStandardOutput { picture.draw { Console.write($0) } }
    guard let file = file.take() else { return }
    _ = try Errno.mapping({ () throws(Errno) in
      try picture.draw { (part) throws(Errno) in try file.writeAll(part.utf8) }
    }) {
      Failure.cannotWrite(path: path, errno: $0)
    }
  }
}
