import Glibc
import MorseTestSupport
import SerialDriver
import Testing
import TransmitterControl

@testable import MorsetorchTool

/// `send --serial` as a user meets it before any port is opened: the words, the options that
/// go with it, and ports that are not there or are no serial port. Keying a real port is the
/// VM's (`Tests/VM`); the keying itself, on a simulated port, `SerialDriverTests`.
@Suite("send --serial")
struct SerialProcessTests {
  private func run(_ arguments: [String], serialDirectory: String) throws
    -> MorsetorchProcess.Outcome
  {
    let leds = try TemporaryLEDDirectory()
    return try MorsetorchProcess.run(
      arguments, ledsDirectory: leds.ledsPath,
      environment: ["MORSETORCH_SERIAL_DIR": serialDirectory])
  }

  @Test(arguments: [
    ["--serial", "ttyS0:cts"], ["--serial", "ttyS0", "--led", "x", "--bias", "pull-up"],
    ["--serial", ""],
    ["--serial", "ttyS0", "--bias", "pull-up"], ["--serial", "ttyS0", "--brightness", "5"],
    ["--serial", "ttyS0", "--preview"],
  ])
  func optionsThatDoNotFitAreUsageErrors(options: [String]) throws {
    let directory = try TemporaryDirectory("serial")
    let outcome = try run(["send"] + options + ["E"], serialDirectory: directory.path)
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(outcome.standardError.hasPrefix("morsetorch: "), "\(outcome)")
  }

  @Test func aLineThePortReadsIsNamedAsSuch() throws {
    let directory = try TemporaryDirectory("serial")
    let outcome = try run(["send", "--serial", "ttyS0:DSR", "E"], serialDirectory: directory.path)
    #expect(outcome.standardError.contains("DSR of /dev/ttyS0 is read, not driven: key dtr or rts"))
  }

  @Test func activeLowAloneNamesEveryOptionItGoesWith() throws {
    let directory = try TemporaryDirectory("serial")
    let outcome = try run(["send", "--active-low", "E"], serialDirectory: directory.path)
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(
      outcome.standardError.contains("--gpio CHIP:LINE or --serial PORT[:LINE]"), "\(outcome)")
  }

  /// Device nodes are made by root only.
  @Test(.enabled(if: getuid() == 0))
  func listShowsThePortsWithHardwareAndSaysWhenThereIsNone() throws {
    let directory = try TemporaryDirectory("serial")
    let none = try run(["list", "--serial"], serialDirectory: directory.path)
    #expect(none.exitStatus == 69, "\(none)")
    #expect(none.standardError.contains("no serial ports with hardware under"), "\(none)")
    // ttyS0 has hardware (a type), ttyS1 is the 8250's unused placeholder (type 0), tty1 a
    // console (no device): only ttyS0, and only if its device is in the directory.
    let classes = directory.path + "/sys-class-tty"
    for (name, type) in [("ttyS0", "4"), ("ttyS1", "0"), ("ttyUSB0", nil)] {
      #expect(mkdir(classes, 0o755) == 0 || errno == EEXIST)
      #expect(mkdir(classes + "/" + name, 0o755) == 0)
      #expect(mkdir(classes + "/" + name + "/device", 0o755) == 0)
      if let type { try write(type + "\n", to: classes + "/" + name + "/type") }
    }
    #expect(mkdir(classes + "/tty1", 0o755) == 0)
    for name in ["ttyS0", "ttyS1", "tty1"] {
      // /dev/null's numbers (1, 3): harmless if anything opened it.
      #expect(mknod(directory.path + "/" + name, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0)
    }
    let listed = try run(["list", "--serial"], serialDirectory: directory.path)
    #expect(listed.exitStatus == 0, "\(listed)")
    #expect(
      listed.standardOutput
        == "PORT\(String(repeating: " ", count: directory.path.count + 4))ACCESS\n"
        + "\(directory.path)/ttyS0  read-write\n", "\(listed)")
  }

  private func write(_ text: String, to path: String) throws {
    let fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
    #expect(fd >= 0)
    _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
    close(fd)
  }

  @Test func aPortThatIsNotThereIs69AndNoFileIsAPort() throws {
    let directory = try TemporaryDirectory("serial")
    let missing = try run(
      ["send", "--serial", "/dev/ttyUSB7", "E"], serialDirectory: directory.path)
    #expect(missing.exitStatus == 69, "\(missing)")
    #expect(missing.standardError.contains("there is no serial port /dev/ttyUSB7"), "\(missing)")
    #expect(missing.standardError.contains("morsetorch list --serial"), "\(missing)")
    // A plain file (or a FIFO) where a port should be is no port, and is not opened.
    let file = directory.path + "/ttyS3"
    let fd = open(file, O_CREAT | O_WRONLY, 0o644)
    close(fd)
    let notAPort = try run(["send", "--serial", "ttyS3", "E"], serialDirectory: directory.path)
    #expect(notAPort.exitStatus == 69, "\(notAPort)")
    #expect(
      notAPort.standardError.contains("has no modem lines (it is no serial port"), "\(notAPort)")
    #expect(mkfifo(directory.path + "/ttyS4", 0o644) == 0)
    let fifo = try run(["send", "--serial", "ttyS4", "E"], serialDirectory: directory.path)
    #expect(fifo.exitStatus == 69, "a FIFO is not opened (it would hang): \(fifo)")
  }

  /// receive finds its port as send does: the same errors, the same statuses.
  @Test func receiveOnAPortThatIsNotThereOrIsNoPortIs69() throws {
    let directory = try TemporaryDirectory("serial")
    let missing = try run(
      ["receive", "--serial", "ttyUSB7:cts", "--timeout", "5s"], serialDirectory: directory.path)
    #expect(missing.exitStatus == 69, "\(missing)")
    #expect(missing.standardError.contains("there is no serial port /dev/ttyUSB7"), "\(missing)")
    #expect(mkfifo(directory.path + "/ttyS4", 0o644) == 0)
    let fifo = try run(
      ["receive", "--serial", "ttyS4:dsr", "--timeout", "5s"], serialDirectory: directory.path)
    #expect(fifo.exitStatus == 69, "a FIFO is not opened (it would hang): \(fifo)")
    #expect(fifo.standardError.contains("has no modem lines"), "\(fifo)")
    let output = try run(["receive", "--serial", "ttyS4:rts"], serialDirectory: directory.path)
    #expect(output.exitStatus == 64, "\(output)")
    #expect(output.standardError.contains("LINE one of cts, dsr, dcd or ri"), "\(output)")
  }
}

/// What a state record of a serial port may make morsetorch open.
@Suite("SerialPortHome records")
struct SerialPortHomeRecordTests {
  private func record(port: String) -> TransmissionRecord {
    TransmissionRecord(
      pid: 99_999, device: .serialPort("ttyS0"), text: "x", totalSymbols: 1,
      saved: SavedSerialPort(port: port, line: .rts, isActiveLow: false, found: nil).fields)
  }

  @Test func aRecordOfOnePortNamingAnotherIsIgnored() throws {
    let environment = ProcessEnvironment(variables: [:])
    // Planted under ttyS0's name, naming ttyUSB0: nothing to put back.
    #expect(
      try SerialPortHome(name: "ttyS0").driver(
        record: record(port: "/dev/ttyUSB0"), environment: environment) == nil)
    let own = try SerialPortHome(name: "ttyS0").driver(
      record: record(port: "/dev/ttyS0"), environment: environment)
    #expect((own as? SerialDevice)?.port.path == "/dev/ttyS0")
  }
}
