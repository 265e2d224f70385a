import DeviceContract
import LinuxSystem
import MorseTestSupport
import SerialDriver
import Testing

private let kernelDefault = SerialSettings(speedIsZero: false, hangsUpOnClose: true)

@Suite("SerialDevice")
struct SerialDeviceTests {
  /// Where the tests' lock files go (never /run/lock).
  private let locks: TemporaryDirectory

  init() throws {
    locks = try TemporaryDirectory("serial-locks")
  }

  private func device(
    _ port: SimulatedSerialPort, line: SerialLine = .rts, activeLow: Bool = false
  ) -> SerialDevice {
    SerialDevice(
      port: .init(path: "/dev/ttyUSB0", name: "ttyUSB0"), line: line, isActiveLow: activeLow,
      directory: SerialPortDirectory(path: "/nonexistent"),
      lockFile: SerialLockFile(directory: locks.path), opener: { _ in port.open() })
  }

  @Test func itIsThePortWhicheverLineIsKeyed() {
    let port = SimulatedSerialPort(settings: kernelDefault)
    #expect(device(port, line: .dtr).id == device(port, line: .rts).id)
    #expect(device(port).id == .serialPort("ttyUSB0"))
    #expect(DeviceID(lockName: device(port).id.lockName) == device(port).id)
  }

  @Test func savingOpensNothingAndTheClaimRecordsWhatItFound() throws {
    let port = SimulatedSerialPort(
      levels: SerialLevels(raised: [.dtr]),
      settings: SerialSettings(speedIsZero: true, hangsUpOnClose: false))
    let device = device(port)
    let before = try device.saveState()
    #expect(port.changes.isEmpty)
    #expect(SavedSerialPort(fields: before)?.found == nil)
    let (torch, saved) = try device.claim(saved: before)
    #expect(SavedSerialPort(fields: saved)?.found == SerialLevels(raised: [.dtr]))
    // Not put in exclusive mode: the kernel would keep it after a killed sender.
    #expect(!port.isExclusive)
    let lock = locks.path + "/LCK..ttyUSB0"
    #expect(FileSystem.exists(lock))
    try torch.set(true)
    try torch.restore()
    #expect(!port.isExclusive)
    #expect(!FileSystem.exists(lock))
    #expect(port.levels == SerialLevels(raised: [.dtr]))
  }

  @Test func aPortAnotherProgramHoldsExclusivelyIsBusyAndLeftAlone() throws {
    let port = SimulatedSerialPort(settings: kernelDefault)
    port.isExclusive = true
    let device = device(port)
    #expect(throws: SerialError.busy(path: "/dev/ttyUSB0")) {
      try device.claim(saved: device.saveState())
    }
    #expect(port.isExclusive)
  }

  @Test func aRecordNamingAnythingButATTYOfTheDirectoryOpensNothing() throws {
    let port = SimulatedSerialPort(settings: kernelDefault)
    let device = device(port)
    for path in ["/etc/passwd", "/dev/../etc/ttyS0", "/dev/sda", "/nonexistent/sub/ttyS0"] {
      let fields = SavedFields([
        .init("port", path), .init("line", "rts"), .init("active-low", "no"),
      ])
      #expect(throws: SerialError.self) { try device.restore(fields, writer: nil) }
    }
    #expect(port.changes.isEmpty)
  }

  @Test func recordsAreReadStrictly() {
    let good = SavedSerialPort(
      port: "/dev/ttyS1", line: .dtr, isActiveLow: true, found: SerialLevels(raised: [.rts]))
    #expect(SavedSerialPort(fields: good.fields) == good)
    var fields = good.fields
    fields.fields[1] = .init("line", "cts")
    #expect(SavedSerialPort(fields: fields) == nil)
    fields = good.fields
    fields.fields[3] = .init("dtr", "maybe")
    #expect(SavedSerialPort(fields: fields) == nil)
    fields = good.fields
    fields.fields.removeLast()
    #expect(SavedSerialPort(fields: fields) == nil)
    #expect(SavedSerialPort(fields: SavedFields([.init("port", "/dev/ttyS1")])) == nil)
  }
}
