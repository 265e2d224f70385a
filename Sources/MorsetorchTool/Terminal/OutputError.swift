import LinuxSystem

/// Standard output could not be written.
struct OutputError: Error, Hashable, CustomStringConvertible {
  /// What `write(2)` said.
  let errno: Errno

  /// Whether the reader went away (`| head`): the command ends quietly then.
  var isBrokenPipe: Bool { errno == .brokenPipe }

  var description: String { "cannot write to standard output: \(errno)" }
}
