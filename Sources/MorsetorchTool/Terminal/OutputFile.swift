import LinuxSystem

/// A file an option writes (`receive --trace FILE`, `send --dry-run --wav FILE`), opened before
/// anything starts, so that a path that cannot be written fails first.
///
/// The file is opened non-blocking and without following a symlink in its last component,
/// then refused unless it is a regular file or a character device (`/dev/null`): a FIFO's
/// reader or a link's target is no place for it. `-` is standard output, which then carries
/// only what the option writes.
final class OutputFile {
  /// The file could not be made, is no file, or could not be written.
  enum Failure: Error, Hashable, CustomStringConvertible {
    case cannotCreate(path: String, option: String, errno: Errno)
    case notAFile(path: String, option: String)
    case cannotWrite(path: String, option: String, errno: Errno)

    var description: String {
      switch self {
      case .cannotCreate(let path, let option, let errno):
        "cannot create \(shown: path) for \(option): \(errno)"
      case .notAFile(let path, let option):
        "cannot write \(shown: path) (\(option)): not a regular file (a FIFO or a symlink is "
          + "refused)"
      case .cannotWrite(let path, let option, let errno):
        "cannot write \(shown: path) (\(option)): \(errno)"
      }
    }
  }

  let path: String
  /// The option that names it, as messages say: `--trace`.
  let option: String
  /// Nil: standard output (or closed).
  private var file: FileDescriptor?
  /// Whether it is standard output.
  let isStandardOutput: Bool

  /// Creates (or empties) `path`, mode 0644, for `option`; `-` is standard output.
  init(path: String, option: String) throws(Failure) {
    self.path = path
    self.option = option
    isStandardOutput = path == "-"
    file = isStandardOutput ? nil : try Self.open(path, option: option)
  }

  /// `path` opened to be written: a regular file (or a character device), else refused.
  private static func open(_ path: String, option: String) throws(Failure) -> FileDescriptor {
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
      throw .notAFile(path: path, option: option)
    } catch {
      throw .cannotCreate(path: path, option: option, errno: error)
    }
  }

  /// Writes `bytes` where the file is (standard output: descriptor 1 itself, bytes as they
  /// are; a closed reader there is the `OutputError` of every other write to it).
  func write(_ bytes: [UInt8]) throws {
    if isStandardOutput {
      do throws(Errno) {
        _ = try FileDescriptor.standardOutput.writeAll(bytes)
      } catch {
        throw OutputError(errno: error)
      }
      return
    }
    do throws(Errno) {
      _ = try file?.writeAll(bytes)
    } catch {
      throw Failure.cannotWrite(path: path, option: option, errno: error)
    }
  }

  /// Writes `bytes` at `offset` without moving on; whether it could (standard output or a
  /// device may be no file to go back in).
  func write(_ bytes: [UInt8], at offset: Int) -> Bool {
    if isStandardOutput {
      return (try? FileDescriptor.standardOutput.writeWhole(bytes, at: offset)) != nil
    }
    return (try? file?.writeWhole(bytes, at: offset)) != nil
  }
}
