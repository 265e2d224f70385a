import Glibc

/// The one helper every wrapper of this module goes through (as in apple/swift-system).
enum SystemCall {
  /// Runs `body` until it stops failing with `EINTR`; `-1` from it becomes the `errno` it left.
  static func retryingOnInterrupt<Value: FixedWidthInteger>(
    _ body: () -> Value
  ) throws(Errno) -> Value {
    while true {
      let result = body()
      guard result == -1 else { return result }
      let code = errno
      if code != EINTR { throw Errno(code: code) }
    }
  }

  /// A C string array for `execve`-style calls (each element `strdup`'d, then NULL), passed to
  /// `body` and freed afterwards.
  static func withCStrings<Value>(
    _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Value
  ) -> Value {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return body(pointers)
  }
}
