import LinuxSystem
import MorseCore

/// `receive --edges-out FILE`: each edge seen, as a line `receive --edges` reads, written as
/// it comes (so a receive that is interrupted keeps what it saw).
final class EdgeRecorder {
  /// The file could not be made or written.
  enum Failure: Error, Hashable, CustomStringConvertible {
    case cannotCreate(path: String, errno: Errno)
    case cannotWrite(path: String, errno: Errno)

    var description: String {
      switch self {
      case .cannotCreate(let path, let errno): "cannot create \(path) for --edges-out: \(errno)"
      case .cannotWrite(let path, let errno): "cannot write \(path) (--edges-out): \(errno)"
      }
    }
  }

  private let path: String
  private let file: FileDescriptor

  /// Creates (or empties) `path`, mode 0644.
  init(path: String) throws(Failure) {
    self.path = path
    do throws(Errno) {
      file = try FileDescriptor.open(path, [.writeOnly, .create, .truncate])
      try file.writeWhole(Array("# morsetorch receive: SECONDS LEVEL\n".utf8))
    } catch {
      throw .cannotCreate(path: path, errno: error)
    }
  }

  /// Writes `edge`'s line.
  func record(_ edge: MorseEdge) throws(Failure) {
    do throws(Errno) {
      try file.writeWhole(Array((EdgeText.format(edge) + "\n").utf8))
    } catch {
      throw .cannotWrite(path: path, errno: error)
    }
  }
}
