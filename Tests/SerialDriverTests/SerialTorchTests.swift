import MorseTestSupport
import SerialDriver
import Testing

/// The kernel's defaults for a port that was never set otherwise: 9600 baud, HUPCL.
private let kernelDefault = SerialSettings(speedIsZero: false, hangsUpOnClose: true)
/// A port whose kept speed is 0 ("stty -F PORT 0").
private let hungUp = SerialSettings(speedIsZero: true, hangsUpOnClose: true)

@Suite("SerialTorch")
struct SerialTorchTests {
  /// Opens `port`, keys `line` as `pattern` says, and restores.
  private func key(
    _ port: SimulatedSerialPort, _ line: SerialLine, activeLow: Bool = false,
    _ pattern: [Bool] = [true, false, true, false]
  ) throws -> SerialTorch {
    let torch = try SerialTorch(
      modem: port.open(), path: "/dev/ttyS0", line: line, isActiveLow: activeLow,
      settings: port.settings)
    for isOn in pattern { try torch.set(isOn) }
    try torch.restore()
    return torch
  }

  @Test(arguments: [SerialLine.dtr, .rts])
  func aPortWhoseSpeedIsZeroMovesOnlyTheKeyedLineAndOnlyForTheMorse(line: SerialLine) throws {
    // The other line up (a PTT a program left raised, HUPCL cleared), the keyed one down.
    let other: SerialLine = line == .dtr ? .rts : .dtr
    let port = SimulatedSerialPort(
      levels: SerialLevels(raised: [other, .cts]),
      settings: SerialSettings(speedIsZero: true, hangsUpOnClose: false))
    let torch = try key(port, line)
    #expect(!torch.openRaisedLines)
    #expect(port.changes.allSatisfy { $0.line == line && $0.cause == "ioctl" }, "\(port.changes)")
    #expect(port.changes.map(\.isUp) == [true, false, true, false])
    #expect(port.levels == SerialLevels(raised: [other, .cts]))
  }

  @Test func anOpenThatRaisedBothLinesIsUndoneInOneCallBeforeAnyMorse() throws {
    let port = SimulatedSerialPort(settings: kernelDefault)
    let torch = try key(port, .rts, [true, false])
    #expect(torch.openRaisedLines)
    #expect(torch.found == SerialLevels())
    // The kernel raised both at the open; the torch's first call dropped both at once.
    #expect(port.calls.first == [.dtr, .rts])
    #expect(port.changes.filter { $0.line == .dtr }.map(\.cause) == ["open", "ioctl"])
    #expect(port.levels == SerialLevels())
  }

  @Test func pttIsTheOtherLineRaisedAroundTheMorseAndPutBackAsFound() throws {
    let port = SimulatedSerialPort(settings: hungUp)
    let torch = try SerialTorch(
      modem: port.open(), path: "/dev/ttyS0", line: .dtr, isActiveLow: false,
      settings: port.settings)
    try torch.setPTT(true, on: .rts)
    try torch.set(true)
    try torch.set(false)
    try torch.suspend()
    #expect(port.levels == SerialLevels(), "Ctrl-Z drops PTT too")
    try torch.resume()
    #expect(port.levels == SerialLevels(raised: [.rts]))
    try torch.restore()
    #expect(
      port.changes.map { "\($0.line) \($0.isUp)" }
        == ["RTS true", "DTR true", "DTR false", "RTS false", "RTS true", "RTS false"])
    #expect(throws: SerialError.self) { try torch.setPTT(true, on: .dtr) }
  }

  @Test func activeLowKeysByDroppingAndPutsTheLineBackAsFound() throws {
    let port = SimulatedSerialPort(levels: SerialLevels(raised: [.dtr]), settings: hungUp)
    let torch = try SerialTorch(
      modem: port.open(), path: "/dev/ttyUSB0", line: .dtr, isActiveLow: true, settings: hungUp)
    #expect(port.levels[.dtr])
    try torch.set(true)
    #expect(!port.levels[.dtr])
    try torch.set(false)
    #expect(port.levels[.dtr])
    try torch.set(true)
    try torch.restore()
    // Found up, put back up, then the close's hang-up (HUPCL) dropped it, as any close would.
    #expect(port.changes.suffix(2).map(\.cause) == ["ioctl", "close"])
    #expect(!port.levels[.rts])
  }

  @Test func suspendKeepsTheLineInactiveAndResumeKeysItAgain() throws {
    let port = SimulatedSerialPort(settings: hungUp)
    let torch = try SerialTorch(
      modem: port.open(), path: "/dev/ttyS0", line: .dtr, isActiveLow: false, settings: hungUp)
    try torch.set(true)
    try torch.suspend()
    #expect(!port.levels[.dtr])
    try torch.set(false)
    try torch.set(true)
    #expect(!port.levels[.dtr])
    try torch.resume()
    #expect(port.levels[.dtr])
    try torch.restore()
    try torch.set(true)
    #expect(!port.levels[.dtr])
  }

  @Test(arguments: [SerialLine.cts, .dsr, .dcd, .ri])
  func aLineThePortReadsCannotBeKeyed(line: SerialLine) {
    let port = SimulatedSerialPort(settings: hungUp)
    #expect(throws: SerialError.notAnOutput(line, path: "/dev/ttyS0")) {
      try SerialTorch(
        modem: port.open(), path: "/dev/ttyS0", line: line, isActiveLow: false, settings: hungUp)
    }
  }

  @Test func theSettingsTellWhatTheOpenDid() {
    let opened = SerialLevels(raised: [.dtr, .rts, .dsr])
    #expect(hungUp.found(afterOpen: opened) == (opened, false))
    let found = kernelDefault.found(afterOpen: opened)
    #expect(found.levels == SerialLevels(raised: [.dsr]) && found.raisedByOpen)
  }
}

@Suite("SerialPortAddress")
struct SerialPortAddressTests {
  @Test func aPortIsAPathOrANameUnderDevAndALineFollowsTheLastColon() throws {
    #expect(try SerialPortAddress("ttyUSB0").path == "/dev/ttyUSB0")
    #expect(try SerialPortAddress("ttyUSB0").line == nil)
    #expect(try SerialPortAddress("/dev/ttyS1:RTS").line == .rts)
    #expect(try SerialPortAddress("ttyACM0:dtr").description == "/dev/ttyACM0:dtr")
    let byID = "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0"
    #expect(try SerialPortAddress(byID + ":cts") == SerialPortAddress(byID + ":CTS"))
    #expect(try SerialPortAddress(byID + ":cts").path == byID)
  }

  @Test func aColonOfThePortsOwnNameIsNoLine() throws {
    let byPath = "/dev/serial/by-path/pci-0000:00:14.0-usb-0:2:1.0-port0"
    #expect(try SerialPortAddress(byPath).path == byPath)
    #expect(try SerialPortAddress(byPath).line == nil)
    #expect(try SerialPortAddress(byPath + ":ri").line == .ri)
  }

  @Test(arguments: ["", ":rts", "serial/ttyS0", "..", "tty\0S0"])
  func whatIsNoPortIsRefusedByName(text: String) {
    #expect(throws: SerialError.invalidAddress(text)) { try SerialPortAddress(text) }
  }
}
