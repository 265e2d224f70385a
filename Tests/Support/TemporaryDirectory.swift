import Foundation

/// An empty directory of its own under the system's temporary directory, removed with the
/// whole tree in it when the value is deinitialized.
public final class TemporaryDirectory: Sendable {
  /// The directory.
  public let path: String

  /// A new directory whose name begins with `prefix`.
  public init(_ prefix: String) throws {
    path = FileManager.default.temporaryDirectory.path + "/\(prefix)-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }
}
