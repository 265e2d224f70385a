import DeviceContract
import LinuxSystem
import SerialDriver
import TransmitterControl

/// Serial ports, as the tool handles them: `--serial PORT[:LINE]` keys DTR or RTS, restored
/// from a record by the port and the levels it keeps, and what their errors mean (`report`).
struct SerialPortHome: DeviceHome {
  /// The kernel's name for the port (`ttyUSB0`).
  let name: String

  static let noun = "serial port"
  static let nounPlural = "serial ports"
  static let restoredPhrase = "put back"
  /// Debian's own udev rules give every serial port to group `dialout`.
  static let access = DeviceAccess(
    group: "dialout", devices: "serial ports", use: "use the serial ports", rule: nil,
    triggerMatch: "--subsystem-match=tty")

  static let sendOption = SendOption.serial
  static let sendOnlyOptions = [SendOption.activeLow]

  static func sendChoice(_ arguments: ParsedArguments<SendOption>) throws -> any SendChoice {
    try SerialChoice(arguments)
  }

  /// The ports under the directory (`ttyS*`, `ttyUSB*`, `ttyACM*`, `ttyAMA*`), as paths.
  static let completion = DeviceCompletion(
    function: "ports",
    bash: [
      "  local directory=\"${MORSETORCH_SERIAL_DIR:-/dev}\"",
      "  _morsetorch_reply \"$(ls -1d \"$directory\"/tty{S,USB,ACM,AMA}[0-9]* \"$directory\"/serial/by-id/* 2>/dev/null)\"",
    ],
    zsh: [
      "  local directory=${MORSETORCH_SERIAL_DIR:-/dev}",
      "  local -a ports",
      "  ports=($directory/tty(S|USB|ACM|AMA)[0-9]*(N) $directory/serial/by-id/*(N))",
      "  compadd -a ports",
    ],
    fish: [
      "  set -l directory /dev",
      "  set -q MORSETORCH_SERIAL_DIR; and test -n \"$MORSETORCH_SERIAL_DIR\"; and set directory $MORSETORCH_SERIAL_DIR",
      "  ls -1d $directory/ttyS[0-9]* $directory/ttyUSB[0-9]* $directory/ttyACM[0-9]* $directory/ttyAMA[0-9]* $directory/serial/by-id/* 2>/dev/null",
    ])

  static let listOption: OptionSpec? = .flag(
    "serial", help: "list the serial ports instead of the LEDs")

  /// The ports the kernel has hardware for, with your access to each.
  static func list(environment: ProcessEnvironment) -> Int32 {
    let ports = environment.serialPorts.list()
    guard !ports.isEmpty else {
      Console.error("no serial ports with hardware under \(environment.serialPorts.classPath)")
      return ExitStatus.unavailable
    }
    let rows = ports.map { port in
      [port.path, FileSystem.isWritable(port.path) ? "read-write" : "none (group \(access.group))"]
    }
    TextTable.aligned([["PORT", "ACCESS"]] + rows).forEach(Console.output)
    return ExitStatus.success
  }

  static let controlOption = OptionSpec.value(
    "serial", "PORT", completion: .devices(.serialPort), isRepeatable: true,
    help: "only this serial port; repeatable")

  static func check(controlWords words: [String]) throws {
    for word in words { _ = try SerialPortAddress(word) }
  }

  /// The ports `words` name: a stable name followed to its device; a port that is gone
  /// (unplugged) by its own name, so that what was left on it can still be stopped and put
  /// back.
  static func chosen(
    _ words: [String], runtime: RuntimeDirectory, environment: ProcessEnvironment
  ) throws -> [DeviceID] {
    try words.map { word in
      let address = try SerialPortAddress(word)
      do {
        return try environment.serialPorts.port(address).id
      } catch let error as SerialError {
        let name = address.path.split(separator: "/").last ?? ""
        guard case .portNotFound = error, address.path == "/dev/" + name,
          DeviceID.isPortName(name)
        else { throw error }
        return .serialPort(String(name))
      }
    }
  }

  static func naming(controlWords words: [String]) -> String {
    "serial port " + words.joined(separator: ", ")
  }

  func exists(environment: ProcessEnvironment) -> Bool {
    (try? FileSystem.status(environment.serialPorts.path + "/" + name))?.isCharacterDevice == true
  }

  /// The port the record keeps (only a tty device of the directory:
  /// `SerialPortDirectory.recordedPort`), with the line and levels it keeps.
  func driver(record: TransmissionRecord, environment: ProcessEnvironment) throws
    -> (any TorchDevice)?
  {
    // The record's port must be the one its name says: a record of ttyS0 puts back ttyS0.
    guard let saved = SavedSerialPort(fields: record.saved), saved.port == "/dev/" + name else {
      Console.error(
        ControlNote.corruptRecordIgnored(
          path: DeviceNames.shown(.serialPort(name)),
          reason: "its saved state is not a serial port's"
        ).message)
      return nil
    }
    let directory = environment.serialPorts
    let port = SerialPortDirectory.Port(path: saved.port, name: name)
    return SerialDevice(
      port: port, line: saved.line, isActiveLow: saved.isActiveLow, directory: directory)
  }

  /// What a serial error says, with the way out, and the status to exit with.
  static func report(_ error: SerialError) -> (message: String, status: Int32) {
    let failureClass: DeviceFailureClass =
      switch error {
      case .invalidAddress, .notAnOutput, .notAnInput: .usage
      case .portNotFound, .noModemLines: .notFound
      case .vanished: .vanished
      case .busy, .lockedBy: .busy
      case .permissionDenied(let path, let errno): .denied(path: path, errno: errno)
      case .io: .io
      case .notRecordable: .notRecordable
      }
    return report(error.description, as: failureClass)
  }
}

extension SerialError: DeviceFailure {
  var ioErrno: Errno? { if case .io(_, _, let errno) = self { errno } else { nil } }
  var hasVanished: Bool { if case .vanished = self { true } else { false } }
}
