import Foundation
import MorseTestSupport

/// Checks `condition` every couple of milliseconds until it holds or `timeout` passes; returns
/// whether it held.
func eventually(
  within timeout: Duration = .seconds(10), _ condition: () throws -> Bool
) rethrows -> Bool {
  let deadline = ContinuousClock.now + timeout
  repeat {
    if try condition() { return true }
    usleep(2_000)
  } while ContinuousClock.now < deadline
  return try condition()
}

/// Reads one LED attribute over and over on a thread of its own and keeps every distinct value
/// it saw, in order: a cheap observer of what the child wrote, and when.
///
/// Writes replace a file's content in two steps (truncate, then write), so an empty read is a
/// moment between them and is not recorded.
final class AttributeRecorder: @unchecked Sendable {
  private let lock = NSLock()
  private var seen: [String] = []
  private var isStopped = false
  private let done = DispatchSemaphore(value: 0)

  /// Starts reading `attribute` of LED `name` in `fixture`.
  convenience init(_ attribute: String, of name: String, in fixture: TemporaryLEDDirectory) {
    self.init(path: fixture.devicePath(of: name) + "/" + attribute)
  }

  /// Starts reading the file at `path` (a simulated GPIO line's `value`, say).
  init(path: String) {
    Thread.detachNewThread { [self] in
      while !lock.withLock({ isStopped }) {
        if let data = FileManager.default.contents(atPath: path), !data.isEmpty {
          let value = String(decoding: data, as: UTF8.self)
          lock.withLock { if seen.last != value { seen.append(value) } }
        }
        usleep(500)
      }
      done.signal()
    }
  }

  /// The distinct values seen so far, in order.
  var values: [String] { lock.withLock { seen } }

  /// Stops reading and returns the distinct values seen, in order.
  func stop() -> [String] {
    lock.withLock { isStopped = true }
    done.wait()
    return values
  }
}

/// Every attribute of an LED as files: content and modification time, to show nothing wrote them.
struct LEDSnapshot: Equatable, CustomStringConvertible {
  /// Attribute name → (content, mtime seconds, mtime nanoseconds).
  let files: [String: FileState]

  /// What one file held, and when it was last written.
  struct FileState: Equatable {
    let content: String
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int
  }

  /// The files in `directory` (an LED's real directory, or any directory laid out like one).
  init(directory: String) throws {
    var files: [String: FileState] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
      let path = directory + "/" + name
      var status = stat()
      guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
      let content = String(
        decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
      files[name] = FileState(
        content: content, modifiedSeconds: Int(status.st_mtim.tv_sec),
        modifiedNanoseconds: Int(status.st_mtim.tv_nsec))
    }
    self.files = files
  }

  /// The files of LED `name` in `fixture`.
  init(of name: String, in fixture: TemporaryLEDDirectory) throws {
    try self.init(directory: fixture.devicePath(of: name))
  }

  var description: String {
    files.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.content.debugDescription)" }
      .joined(separator: " ")
  }
}
