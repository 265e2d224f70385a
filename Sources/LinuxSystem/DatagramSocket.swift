import Glibc

/// An IPv4 address and port (`sockaddr_in`), in the host's byte order.
public struct InternetAddress: Sendable, Hashable, CustomStringConvertible {
  /// The address: 0x7F000001 for 127.0.0.1.
  public let host: UInt32
  /// The port.
  public let port: UInt16

  /// `host`:`port`.
  public init(host: UInt32, port: UInt16) {
    self.host = host
    self.port = port
  }

  /// The address written as four decimal numbers (`inet_pton(3)`), with `port`; nil if it is
  /// not one.
  public init?(_ text: String, port: UInt16) {
    var address = in_addr()
    guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
    self.init(host: UInt32(bigEndian: address.s_addr), port: port)
  }

  /// 127.0.0.1, this machine's own.
  public static func loopback(port: UInt16) -> InternetAddress {
    InternetAddress(host: 0x7F00_0001, port: port)
  }

  /// `a.b.c.d:port`.
  public var description: String { "\(hostText):\(port)" }

  /// `a.b.c.d`.
  public var hostText: String {
    [24, 16, 8, 0].map { String((host >> $0) & 0xFF) }.joined(separator: ".")
  }

  fileprivate var socketAddress: sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = host.bigEndian
    return address
  }

  fileprivate init(_ address: sockaddr_in) {
    self.init(
      host: UInt32(bigEndian: address.sin_addr.s_addr), port: UInt16(bigEndian: address.sin_port))
  }
}

/// A UDP socket (`AF_INET`, `SOCK_DGRAM`) bound to an address: datagrams in, with their
/// sender, and out to any address, from the bound port.
public struct DatagramSocket: ~Copyable, Sendable {
  private let file: FileDescriptor

  /// `socket(2)` and `bind(2)` to `address`; `EADDRINUSE` if another socket has it.
  public init(binding address: InternetAddress) throws(Errno) {
    let raw = try SystemCall.retryingOnInterrupt {
      socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    }
    let file = FileDescriptor(owning: raw)
    var bound = address.socketAddress
    _ = try SystemCall.retryingOnInterrupt {
      withUnsafePointer(to: &bound) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
          bind(raw, generic, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    self.file = file
  }

  /// The address it is bound to (`getsockname(2)`): the port the kernel chose for port 0.
  public func boundAddress() throws(Errno) -> InternetAddress {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = try SystemCall.retryingOnInterrupt {
      withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
          getsockname(file.rawValue, generic, &length)
        }
      }
    }
    return InternetAddress(address)
  }

  /// The next datagram (its first `limit` bytes; the rest is lost) and who sent it; nil once
  /// `event` fired, which ends the wait at once.
  public func receive(limit: Int, unlessFired event: OneShotEvent) throws(Errno) -> (
    bytes: [UInt8], sender: InternetAddress
  )? {
    while true {
      guard file.waitUntilReadable(unlessFired: event) else { return nil }
      var buffer = [UInt8](repeating: 0, count: limit)
      var address = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let count = buffer.withUnsafeMutableBytes { bytes in
        withUnsafeMutablePointer(to: &address) { pointer in
          pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            recvfrom(
              file.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), generic, &length)
          }
        }
      }
      guard count >= 0 else {
        let error = Errno.current
        // Nothing after all, a signal, or an ICMP error left by an earlier reply: wait again.
        if error == .wouldBlock || error == .interrupted || error.code == ECONNREFUSED { continue }
        throw error
      }
      return (Array(buffer[..<count]), InternetAddress(address))
    }
  }

  /// Sends `bytes` as one datagram to `address` (`sendto(2)`, never waiting: a full queue
  /// drops it, as UDP may).
  public func send(_ bytes: [UInt8], to address: InternetAddress) throws(Errno) {
    var destination = address.socketAddress
    _ = try SystemCall.retryingOnInterrupt {
      bytes.withUnsafeBytes { buffer in
        withUnsafePointer(to: &destination) { pointer in
          pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            sendto(
              file.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL),
              generic, socklen_t(MemoryLayout<sockaddr_in>.size))
          }
        }
      }
    }
  }
}
