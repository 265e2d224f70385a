import DeviceContract
import LinuxSystem

/// A serial port's DTR or RTS line claimed as a torch: the tty's `TorchDevice`.
public struct SerialDevice: TorchDevice {
  /// The port.
  public let port: SerialPortDirectory.Port
  /// The line keyed.
  public let line: SerialLine
  /// Whether active is the dropped level (reversed wiring).
  public let isActiveLow: Bool
  /// Where ports are, for a restore from a record.
  public let directory: SerialPortDirectory
  /// The port's own lock convention (`/run/lock/LCK..NAME`).
  public let lockFile: SerialLockFile
  /// Opens a port: the kernel's, or a simulated one in the tests.
  private let opener: @Sendable (String) throws(SerialError) -> any SerialPortFile

  /// `line` of `port`, active low or not.
  public init(
    port: SerialPortDirectory.Port, line: SerialLine, isActiveLow: Bool = false,
    directory: SerialPortDirectory, lockFile: SerialLockFile = SerialLockFile(),
    opener: @escaping @Sendable (String) throws(SerialError) -> any SerialPortFile = {
      (path) throws(SerialError) in try SerialPort(path: path)
    }
  ) {
    self.port = port
    self.line = line
    self.isActiveLow = isActiveLow
    self.directory = directory
    self.lockFile = lockFile
    self.opener = opener
  }

  /// The port, by the kernel's name.
  public var id: DeviceID { port.id }

  /// What is known before the port is opened (opening may move its lines): the port, the
  /// line and its polarity.
  public func saveState() throws -> SavedFields {
    guard line.isOutput else { throw SerialError.notAnOutput(line, path: port.path) }
    return SavedSerialPort(port: port.path, line: line, isActiveLow: isActiveLow, found: nil)
      .fields
  }

  /// Takes the port's lock file, opens the port (`busy` if another program holds it in
  /// exclusive mode) and keys its line; the state to restore now holds the levels found. The
  /// lock file goes when the torch closes the port.
  ///
  /// The port is not put in exclusive mode itself (`TIOCEXCL`): the kernel keeps that mode
  /// after the last close, so a sender killed while keying would leave the port to root
  /// alone (every other open fails with `EBUSY`, the group's member's own next run included).
  /// The lock file and morsetorch's device lock keep other senders off.
  public func claim(saved: SavedFields) throws -> (torch: any Torch, saved: SavedFields) {
    let pid = CurrentProcess.id
    let locked = try lockFile.acquire(port.name, port: port.path, pid: pid)
    let opened: any SerialPortFile
    do {
      opened = try opener(port.path)
    } catch {
      if locked { lockFile.release(port.name, pid: pid) }
      throw error
    }
    let file: any SerialPortFile =
      locked
      ? LockedPort(
        opened,
        release: { [lockFile, name = port.name] in
          lockFile.release(name, pid: pid)
        }) : opened
    do {
      if try file.isExclusive() { throw SerialError.busy(path: port.path) }
      let settings = try file.settings()
      let torch = try SerialTorch(
        modem: file, path: port.path, line: line, isActiveLow: isActiveLow, settings: settings)
      let found = SavedSerialPort(
        port: port.path, line: line, isActiveLow: isActiveLow, found: torch.found)
      return (torch, found.fields)
    } catch {
      file.close()
      throw error
    }
  }

  /// Puts DTR and RTS back as found (after the transmitter died): only a tty device of the
  /// directory, only if `writer` may use it.
  ///
  /// The port is opened even where the kernel's close of the dead sender's port may have
  /// dropped both lines already (HUPCL): that close hangs up only if it was the last, and a
  /// program holding the port for PTT keeps it open, so the keyed line may still be up,
  /// keying a radio. At a kept speed of 0 this open moves nothing; otherwise it raises both
  /// lines for a moment, as every open does, before they are put back.
  public func restore(_ fields: SavedFields, writer: UserRights?) throws -> [SkippedSetting] {
    guard let saved = SavedSerialPort(fields: fields) else {
      throw SerialError.notRecordable(
        path: fields.value(of: "port") ?? "?", directory: directory.path)
    }
    guard let path = try directory.recordedPort(saved.port, writer: writer) else {
      return [
        SkippedSetting(name: saved.port, reason: .writerMayNotWrite(writer: writer?.shown ?? "?"))
      ]
    }
    let file = try opener(path)
    defer { file.close() }
    let opened = try file.levels()
    let settings = try file.settings()
    // Found unknown (killed before the open): as the open found them, or down if it raised them.
    let found = saved.found ?? settings.found(afterOpen: opened).levels
    try SerialTorch.move(file, from: opened, to: found)
    return []
  }

  /// Whether `saved` is a serial port's state (`SavedSerialPort.init?(fields:)`).
  public func isPlausible(_ saved: SavedFields) -> Bool {
    SavedSerialPort(fields: saved) != nil
  }
}

/// An open port as `SerialDevice` uses it: its lines, its settings, and whether another
/// program holds it in exclusive mode.
public protocol SerialPortFile: SerialModem {
  func settings() throws(SerialError) -> SerialSettings
  func isExclusive() throws(SerialError) -> Bool
}

extension SerialPort: SerialPortFile {}

/// An open port whose lock file goes when it closes.
final class LockedPort: SerialPortFile {
  private let port: any SerialPortFile
  private let release: @Sendable () -> Void

  init(_ port: any SerialPortFile, release: @escaping @Sendable () -> Void) {
    self.port = port
    self.release = release
  }

  func levels() throws(SerialError) -> SerialLevels { try port.levels() }
  func set(_ lines: Set<SerialLine>, up: Bool) throws(SerialError) { try port.set(lines, up: up) }
  func settings() throws(SerialError) -> SerialSettings { try port.settings() }
  func isExclusive() throws(SerialError) -> Bool { try port.isExclusive() }

  /// Closes the port, then removes the lock file.
  func close() {
    port.close()
    release()
  }
}
