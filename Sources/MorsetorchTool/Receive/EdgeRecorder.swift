import LinuxSystem
import MorseCore
import MorseReceiving

/// `receive --edges-out FILE`: each edge seen, as a line `receive --edges` reads, written as
/// it comes (so a receive that is interrupted keeps what it saw).
///
/// Never waits unless `stop` can end the wait: the file is opened non-blocking, so a FIFO no
/// process reads is refused at once instead of holding `open(2)` deaf to signals, and a FIFO
/// whose reader falls behind is waited on only until `stop` fires (the lines after are
/// dropped: the receive is ending).
final class EdgeRecorder {
  /// The file could not be made or written.
  enum Failure: Error, Hashable, CustomStringConvertible {
    case cannotCreate(path: String, errno: Errno)
    case noReader(path: String)
    case cannotWrite(path: String, errno: Errno)

    var description: String {
      switch self {
      case .cannotCreate(let path, let errno):
        "cannot create \(shown: path) for --edges-out: \(errno)"
      case .noReader(let path):
        "cannot write \(shown: path) (--edges-out): no process is reading this FIFO; start its reader "
          + "first"
      case .cannotWrite(let path, let errno): "cannot write \(shown: path) (--edges-out): \(errno)"
      }
    }
  }

  private let path: String
  private let file: FileDescriptor
  private let stop: OneShotEvent
  /// Whether `stop` ended a wait for the reader of a FIFO: nothing more is written.
  private var isStopped = false

  /// Creates (or empties) `path`, mode 0644; `stop` ends any wait for a FIFO's reader.
  init(path: String, stop: OneShotEvent) throws(Failure) {
    self.path = path
    self.stop = stop
    do throws(Errno) {
      file = try FileDescriptor.open(path, [.writeOnly, .create, .truncate, .nonBlocking])
    } catch  where error == .noSuchDeviceOrAddress {
      // ENXIO: what open(2) says, non-blocking, of a FIFO with no reader.
      let isFIFO = (try? FileSystem.status(path))?.isFIFO ?? false
      throw isFIFO ? .noReader(path: path) : .cannotCreate(path: path, errno: error)
    } catch {
      throw .cannotCreate(path: path, errno: error)
    }
    try Errno.mapping({ () throws(Errno) in try write("# morsetorch receive: SECONDS LEVEL\n") }) {
      Failure.cannotCreate(path: path, errno: $0)
    }
  }

  /// Writes `edge`'s line.
  func record(_ edge: MorseEdge) throws(Failure) {
    try Errno.mapping({ () throws(Errno) in try write(EdgeText.format(edge) + "\n") }) {
      Failure.cannotWrite(path: path, errno: $0)
    }
  }

  private func write(_ line: String) throws(Errno) {
    guard !isStopped else { return }
    isStopped = try !file.writeAll(Array(line.utf8), unlessFired: stop)
  }
}
