import LinuxSystem

/// A waiting sender's place in line: its file, locked while it lives, removed when it goes.
struct Ticket: ~Copyable {
  let number: Int
  let path: String
  let file: FileDescriptor

  deinit {
    try? FileSystem.unlink(path)
  }
}
