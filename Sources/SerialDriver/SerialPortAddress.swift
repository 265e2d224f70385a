/// `--serial PORT[:LINE]` as the user wrote it: the port's device (`/dev/ttyUSB0`, `ttyUSB0`,
/// or a stable name under `/dev/serial/by-id/`) and, after the last `:`, a line's name.
///
/// A `:` is only the line's separator when what follows it names a line: `by-path` names
/// hold colons of their own (`pci-0000:00:14.0-usb-0:2:1.0-port0`).
public struct SerialPortAddress: Sendable, Hashable, CustomStringConvertible {
  /// The port as given, a bare name made a path under `/dev` (`ttyUSB0` is `/dev/ttyUSB0`).
  public let path: String
  /// The line named, if any.
  public let line: SerialLine?

  /// Reads `text`; throws `invalidAddress` for an empty port, or a path that is not
  /// absolute and not a bare name.
  public init(_ text: String) throws(SerialError) {
    var port = Substring(text)
    var line: SerialLine?
    if let colon = text.lastIndex(of: ":"),
      let named = SerialLine(rawValue: text[text.index(after: colon)...].lowercased())
    {
      port = text[..<colon]
      line = named
    }
    guard !port.isEmpty, !port.contains("\0") else { throw .invalidAddress(text) }
    if port.hasPrefix("/") {
      path = String(port)
    } else {
      guard !port.contains("/"), port != ".", port != ".." else { throw .invalidAddress(text) }
      path = "/dev/" + port
    }
    self.line = line
  }

  /// `/dev/ttyUSB0:rts`, or the port alone.
  public var description: String { line.map { "\(path):\($0.rawValue)" } ?? path }
}
