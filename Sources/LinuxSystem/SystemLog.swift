import CLinuxSystem

/// The system log (syslog: the journal on systemd machines), spoken to directly: one datagram
/// per message to its socket, as syslog(3) does, in the form the journal and syslog daemons
/// read (`<PRIORITY>IDENT[PID]: MESSAGE`, facility `user`).
public struct SystemLog: Sendable {
  /// How serious a message is (syslog severities).
  public enum Severity: Int, Sendable {
    case error = 3
    case warning = 4
    case notice = 5
    case info = 6
  }

  /// Where the system log listens.
  public static let defaultSocket = "/dev/log"

  /// The socket messages go to.
  public let socketPath: String
  /// The name messages go under (`morsetorch`).
  public let identifier: String

  /// A log at `socketPath` under `identifier`.
  public init(socketPath: String = SystemLog.defaultSocket, identifier: String) {
    self.socketPath = socketPath
    self.identifier = identifier
  }

  /// Logs `message` (each line a message of its own); returns the error if the log could not
  /// be reached (nothing listens: the message is lost, as with syslog(3)).
  @discardableResult
  public func log(_ message: String, severity: Severity) -> Errno? {
    let facilityUser = 1 << 3
    var failure: Errno?
    for line in message.split(separator: "\n") where !line.isEmpty {
      let text = "<\(facilityUser | severity.rawValue)>\(identifier)[\(CurrentProcess.id)]: \(line)"
      let bytes = Array(text.utf8)
      let result = bytes.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) {
          morse_send_datagram(socketPath, $0.baseAddress, $0.count)
        }
      }
      if result != 0 && failure == nil { failure = Errno.current }
    }
    return failure
  }
}
