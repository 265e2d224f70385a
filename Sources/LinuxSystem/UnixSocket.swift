import CLinuxSystem
import Glibc
import Instants

/// A Unix-domain stream socket (`AF_UNIX`, `SOCK_STREAM`): a listener bound to a path, or one
/// end of a connection.
///
/// Connecting to a socket file needs write permission on it, so a socket of mode 0660 in a
/// directory shared by a group is a door only that group can knock on — and the kernel
/// names whoever knocked (`SO_PEERCRED`).
public struct UnixSocket: ~Copyable, Sendable {
  private let file: FileDescriptor

  private init(_ file: consuming FileDescriptor) {
    self.file = file
  }

  /// `socket(2)`, `bind(2)`, `chmod(2)` to `permissions` and `listen(2)` at `path`. Throws
  /// `EADDRINUSE` if something is at `path`, `ENAMETOOLONG` past 107 bytes.
  ///
  /// Not through the umask: it is the whole process's, and another thread creating a file at
  /// that moment (a record, a test's directory) would get the socket's narrow mask. Between
  /// `bind` and `chmod` the socket has the umask's mode; no connection is taken before
  /// `listen`, and in the runtime directory only its group may reach it at all.
  public static func listen(at path: String, permissions: UInt32) throws(Errno) -> UnixSocket {
    let socket = try makeSocket()
    var address = try makeAddress(path)
    _ = try SystemCall.retryingOnInterrupt {
      withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
          bind(socket.file.rawValue, generic, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
    }
    _ = try SystemCall.retryingOnInterrupt { chmod(path, mode_t(permissions)) }
    _ = try SystemCall.retryingOnInterrupt { Glibc.listen(socket.file.rawValue, 16) }
    return socket
  }

  /// `connect(2)` to the socket at `path`, never waiting: the socket does not block, so a
  /// listener whose queue is full (one that never accepts) is `EAGAIN` at once rather than a
  /// wait no signal ends. Reads and writes on it do not block either.
  public static func connect(to path: String) throws(Errno) -> UnixSocket {
    let socket = try makeSocket(flags: Int32(SOCK_NONBLOCK.rawValue))
    var address = try makeAddress(path)
    _ = try SystemCall.retryingOnInterrupt {
      withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
          Glibc.connect(socket.file.rawValue, generic, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
    }
    return socket
  }

  /// `accept(2)`: waits for the next connection. Fails (`EINVAL`) once `shutDown()` was called.
  public func accept() throws(Errno) -> UnixSocket {
    let raw = try SystemCall.retryingOnInterrupt { morse_accept_cloexec(file.rawValue) }
    return UnixSocket(FileDescriptor(owning: raw))
  }

  /// `shutdown(2)` both ways: a thread waiting in `accept()` or reading wakes.
  public func shutDown() {
    _ = Glibc.shutdown(file.rawValue, Int32(SHUT_RDWR))
  }

  /// The process and user at the other end (`SO_PEERCRED`), as they were when it connected.
  public func peer() throws(Errno) -> (processID: Int32, userID: UInt32) {
    var processID: pid_t = 0
    var userID: uid_t = 0
    _ = try SystemCall.retryingOnInterrupt {
      morse_peer_credentials(file.rawValue, &processID, &userID)
    }
    return (processID, userID)
  }

  /// Sends all of `bytes` (`MSG_NOSIGNAL`: a closed peer is `EPIPE`, never SIGPIPE).
  public func send(_ bytes: [UInt8]) throws(Errno) {
    var rest = bytes[...]
    while !rest.isEmpty {
      let sent = try rest.withUnsafeBytes { buffer in
        Result { () throws(Errno) in
          try SystemCall.retryingOnInterrupt {
            Glibc.send(file.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
          }
        }
      }.get()
      rest = rest.dropFirst(sent)
    }
  }

  /// Reads what is there (up to `limit` bytes), waiting for it; empty at the end.
  public func receive(limit: Int = 256) throws(Errno) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: limit)
    let count = try buffer.withUnsafeMutableBytes { bytes in
      Result { () throws(Errno) in try file.read(into: bytes) }
    }.get()
    return Array(buffer[..<count])
  }

  /// Waits up to `timeout` for the other end to close, unless `giveUp` fires first (looked at
  /// every 50 ms); whether it closed. Bytes that arrive meanwhile are read and dropped.
  public func waitForClose(timeout: Duration, unless giveUp: OneShotEvent? = nil) -> Bool {
    let deadline = MonotonicTime.now() + timeout
    while giveUp?.isFired != true {
      let left = deadline - MonotonicTime.now()
      guard left > .zero else { return false }
      // A signal (EINTR) only shortens a slice.
      guard file.waitUntilReadable(timeout: min(left, .milliseconds(50))) else { continue }
      do throws(Errno) {
        if try receive().isEmpty { return true }
      } catch {
        // Nothing after all (a socket that does not block), or interrupted: look again.
        if error != .wouldBlock && error != .interrupted { return true }
      }
    }
    return false
  }

  private static func makeSocket(flags: Int32 = 0) throws(Errno) -> UnixSocket {
    let raw = try SystemCall.retryingOnInterrupt {
      socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | flags, 0)
    }
    return UnixSocket(FileDescriptor(owning: raw))
  }

  private static func makeAddress(_ path: String) throws(Errno) -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity, !bytes.contains(0) else { throw Errno(code: ENAMETOOLONG) }
    withUnsafeMutableBytes(of: &address.sun_path) { storage in
      storage.copyBytes(from: bytes)
    }
    return address
  }
}
