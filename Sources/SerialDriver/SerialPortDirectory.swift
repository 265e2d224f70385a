import DeviceContract
import LinuxSystem

/// Where the serial ports are: their devices (`/dev`, or `MORSETORCH_SERIAL_DIR`), and what
/// the kernel says of them (`/sys/class/tty`).
public struct SerialPortDirectory: Sendable {
  /// The directory of the ports' devices.
  public let path: String
  /// The kernel's class directory of ttys.
  public let classPath: String

  public init(path: String = "/dev", classPath: String = "/sys/class/tty") {
    self.path = path
    self.classPath = classPath
  }

  /// A port found: its device's path and the kernel's name for it.
  public struct Port: Sendable, Hashable {
    /// `/dev/ttyUSB0`.
    public let path: String
    /// `ttyUSB0`.
    public let name: String
    public init(path: String, name: String) {
      self.path = path
      self.name = name
    }

    /// The device as one transmission at a time holds it.
    public var id: DeviceID { .serialPort(name) }
  }

  /// The port `address` names, a stable name's symlinks followed to the device: a
  /// character device whose name is a tty's (`portNotFound` listing the ports there are, if
  /// nothing is there; `noModemLines` for anything else).
  public func port(_ address: SerialPortAddress) throws(SerialError) -> Port {
    let given =
      address.path.hasPrefix("/dev/") && path != "/dev"
      ? path + address.path.dropFirst(4) : address.path
    let resolved: String
    let status: FileStatus
    do {
      resolved = try FileSystem.resolvedPath(given)
      status = try FileSystem.status(resolved)
    } catch .noSuchFile {
      throw .portNotFound(path: address.path, available: list().map(\.path))
    } catch {
      throw SerialError(error, operation: "open", path: address.path)
    }
    let name = resolved.split(separator: "/").last ?? ""
    guard status.isCharacterDevice, DeviceID.isPortName(name) else {
      throw .noModemLines(path: address.path)
    }
    return Port(path: resolved, name: String(name))
  }

  /// The ports the kernel has hardware for, by name: each tty of the class directory with a
  /// `device` (not a virtual console or a pty) whose `type` is not 0 where it has one (the
  /// 8250 driver's unused `ttyS` placeholders are 0), and whose device is here.
  public func list() -> [Port] {
    let names = (try? FileSystem.directoryEntries(classPath)) ?? []
    return names.sorted().compactMap { name in
      let entry = classPath + "/" + name
      guard DeviceID.isPortName(Substring(name)), FileSystem.exists(entry + "/device"),
        (try? FileSystem.readFile(entry + "/type", limit: 64)).map({ $0 != Array("0\n".utf8) })
          ?? true,
        (try? FileSystem.status(path + "/" + name))?.isCharacterDevice == true
      else { return nil }
      return Port(path: path + "/" + name, name: name)
    }
  }

  /// The port a state record names, to put back: its path, checked to be a tty device right
  /// in this directory; nil if `writer` may not use it.
  public func recordedPort(_ recordedPath: String, writer: UserRights?) throws(SerialError)
    -> String?
  {
    let name = recordedPath.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
    let path = self.path + "/" + name
    guard recordedPath == "/dev/" + name || recordedPath == path, DeviceID.isPortName(name) else {
      throw .notRecordable(path: recordedPath, directory: self.path)
    }
    let status: FileStatus
    do {
      status = try FileSystem.linkStatus(path)
    } catch {
      throw SerialError(error, operation: "open", path: path)
    }
    guard status.isCharacterDevice else {
      throw .notRecordable(path: recordedPath, directory: self.path)
    }
    if let writer {
      let mayUse: Bool
      do {
        mayUse = try writer.mayReadAndWrite(path)
      } catch {
        throw SerialError(error, operation: "check the rights of \(writer.shown) on", path: path)
      }
      if !mayUse { return nil }
    }
    return path
  }
}
