import Glibc

/// Calls on paths: reading and replacing small files, listing and making directories.
///
/// Paths are used as given; nothing here follows or refuses symlinks on its own (a real
/// `/sys/class/leds/NAME` is a symlink into `/sys/devices`). Use `.noFollow` where it matters.
public enum FileSystem {
  /// The largest file `readFile` accepts; sysfs attributes fit in one page.
  public static let maximumFileSize = 65_536

  /// The whole content of `path`: `open(2)` read-only, `read(2)` to the end, `close(2)`.
  /// Throws `EFBIG` past `limit` bytes.
  public static func readFile(_ path: String, limit: Int = maximumFileSize) throws(Errno)
    -> [UInt8]
  {
    let file = try FileDescriptor.open(path, .readOnly)
    let content = Result { () throws(Errno) in try file.readAll(limit: limit) }
    try close(file, keeping: content)
    return try content.get()
  }

  /// Replaces the content of an existing file with `bytes` in one `write(2)`.
  ///
  /// `O_TRUNC` keeps a plain file right ("0\n" over "255\n" leaves "0\n", not "055\n") and is
  /// ignored by sysfs. No `O_CREAT`: a missing attribute means the device is gone, and must not
  /// turn into a new file.
  public static func replaceFile(_ path: String, with bytes: [UInt8]) throws(Errno) {
    let file = try FileDescriptor.open(path, [.writeOnly, .truncate])
    let written = Result { () throws(Errno) in try file.writeWhole(bytes) }
    try close(file, keeping: written)
    try written.get()
  }

  /// Closes `file`; the body's error (in `result`) wins over the close error.
  private static func close<Value>(
    _ file: consuming FileDescriptor, keeping result: Result<Value, Errno>
  ) throws(Errno) {
    do throws(Errno) {
      try file.close()
    } catch {
      if case .success = result { throw error }
    }
  }

  /// `opendir(3)`, `readdir(3)` and `closedir(3)`: the names in a directory, without `.` and
  /// `..`, in the order the file system gives them.
  public static func directoryEntries(_ path: String) throws(Errno) -> [String] {
    guard let directory = opendir(path) else { throw Errno.current }
    defer { closedir(directory) }
    var names: [String] = []
    while true {
      // readdir returns NULL both at the end and on error; only errno tells them apart.
      errno = 0
      guard let entry = readdir(directory) else {
        if errno != 0 { throw Errno.current }
        return names
      }
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
  }

  /// `access(2)`: whether the real user may run `path` (`X_OK`), a regular file.
  public static func isExecutable(_ path: String) -> Bool {
    isAccessible(path, X_OK) && (try? status(path))?.isRegularFile == true
  }

  /// The program `name` as a shell finds it on `searchPath` (a `PATH`): the first absolute
  /// directory's that the real user may run; nil if none has it.
  public static func program(_ name: String, onPath searchPath: String) -> String? {
    for directory in searchPath.split(separator: ":") where directory.hasPrefix("/") {
      let candidate = "\(directory)/\(name)"
      if isExecutable(candidate) { return candidate }
    }
    return nil
  }

  /// `access(2)`: whether the real user may access `path` for writing (`W_OK`).
  public static func isWritable(_ path: String) -> Bool { isAccessible(path, W_OK) }

  /// `access(2)` with `W_OK`: why the real user may not write `path` (`EACCES`, `EROFS`, …),
  /// or nil if they may.
  public static func writeRefusal(_ path: String) -> Errno? {
    do throws(Errno) {
      _ = try SystemCall.retryingOnInterrupt { Glibc.access(path, W_OK) }
      return nil
    } catch {
      return error
    }
  }

  /// `access(2)` with `W_OK | X_OK`: whether the real user may make files in directory `path`.
  public static func isWritableDirectory(_ path: String) -> Bool {
    isAccessible(path, W_OK | X_OK)
  }

  /// `access(2)` with `F_OK`: whether `path` exists (following symlinks).
  public static func exists(_ path: String) -> Bool { isAccessible(path, F_OK) }

  private static func isAccessible(_ path: String, _ mode: Int32) -> Bool {
    (try? SystemCall.retryingOnInterrupt { Glibc.access(path, mode) }) != nil
  }

  /// `stat(2)`, which follows symlinks.
  public static func status(_ path: String) throws(Errno) -> FileStatus {
    var status = stat()
    _ = try SystemCall.retryingOnInterrupt { stat(path, &status) }
    return FileStatus(status)
  }

  /// `realpath(3)`: `path` with every symlink followed and `.`/`..` gone (a stable name
  /// under `/dev/serial/by-id/` is the device it links to).
  public static func resolvedPath(_ path: String) throws(Errno) -> String {
    guard let resolved = Glibc.realpath(path, nil) else { throw Errno.current }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// `lstat(2)`: the status of `path` itself, not of what a symlink points to.
  public static func linkStatus(_ path: String) throws(Errno) -> FileStatus {
    var status = stat()
    _ = try SystemCall.retryingOnInterrupt { lstat(path, &status) }
    return FileStatus(status)
  }

  /// `mkdir(2)`.
  public static func makeDirectory(_ path: String, permissions: UInt32) throws(Errno) {
    _ = try SystemCall.retryingOnInterrupt { mkdir(path, mode_t(permissions)) }
  }

  /// `rename(2)`: atomically replaces `destination` (a symlink there is replaced, not followed).
  public static func rename(_ source: String, to destination: String) throws(Errno) {
    _ = try SystemCall.retryingOnInterrupt { Glibc.rename(source, destination) }
  }

  /// `unlink(2)`.
  public static func unlink(_ path: String) throws(Errno) {
    _ = try SystemCall.retryingOnInterrupt { Glibc.unlink(path) }
  }
}
