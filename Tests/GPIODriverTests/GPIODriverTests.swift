import Foundation
import LinuxSystem
import MorseCore
import MorsePlayer
import MorseTestSupport
import Testing

@testable import GPIODriver
@testable import TransmitterControl

/// A Raspberry Pi's first chip, shortened: 28 lines, a few named; line 4 held by a driver.
private func piChip() throws -> TemporaryGPIODirectory {
  let directory = try TemporaryGPIODirectory()
  try directory.addChip(
    0, label: "pinctrl-bcm2711", lines: 28,
    names: [4: "GPIO4", 17: "GPIO17", 27: "GPIO27"], consumers: [4: "w1-gpio"])
  try directory.addChip(1, label: "raspberrypi-exp-gpio", lines: 8, names: [0: "BT_ON"])
  return directory
}

@Suite struct GPIOLineAddressTests {
  @Test func chipAndLineAreSplitAtTheLastColon() throws {
    let plain = try GPIOLineAddress("gpiochip0:17")
    #expect(plain.chip == "gpiochip0" && plain.line == "17" && plain.offset == 17)
    let named = try GPIOLineAddress("my:chip:GPIO17")
    #expect(named.chip == "my:chip" && named.line == "GPIO17" && named.offset == nil)
    #expect(try GPIOLineAddress("/dev/gpiochip0:4").chip == "/dev/gpiochip0")
  }

  @Test(arguments: ["+5", "-5", " 5", "0x5", "٥"])
  func aLineOffsetIsDecimalDigitsOnlyAnythingElseIsAName(line: String) throws {
    let address = try GPIOLineAddress("gpiochip0:" + line)
    #expect(address.line == line && address.offset == nil)
  }

  @Test(arguments: ["17", "gpiochip0:", ":17", "gpiochip0"])
  func anAddressWithoutChipAndLineIsRefused(text: String) {
    #expect(throws: GPIOError.invalidAddress(text)) { _ = try GPIOLineAddress(text) }
  }
}

@Suite struct GPIOChipDirectoryTests {
  @Test func aLineIsFoundByChipNameNumberLabelOrPathAndByOffsetOrName() throws {
    let fixture = try piChip()
    let directory = GPIOChipDirectory(path: fixture.path, standIn: SimulatedChips())
    #expect(directory.chipNames() == ["gpiochip0", "gpiochip1"])
    for text in [
      "gpiochip0:17", "0:17", "pinctrl-bcm2711:17", "gpiochip0:GPIO17",
      fixture.chipPath(0) + ":GPIO17",
    ] {
      let line = try directory.line(GPIOLineAddress(text))
      #expect(line.chipName == "gpiochip0" && line.offset == 17 && line.name == "GPIO17", "\(text)")
    }
    #expect(try directory.line(GPIOLineAddress("raspberrypi-exp-gpio:BT_ON")).offset == 0)
  }

  @Test func errorsSayWhatExists() throws {
    let fixture = try piChip()
    let directory = GPIOChipDirectory(path: fixture.path, standIn: SimulatedChips())
    #expect(
      throws: GPIOError.chipNotFound(
        "pinctrl-bcm2835",
        available: ["gpiochip0 (pinctrl-bcm2711)", "gpiochip1 (raspberrypi-exp-gpio)"])
    ) { _ = try directory.line(GPIOLineAddress("pinctrl-bcm2835:17")) }
    #expect(
      throws: GPIOError.lineNotFound(
        chip: "gpiochip0", line: "28", lines: 28, named: ["GPIO4", "GPIO17", "GPIO27"])
    ) { _ = try directory.line(GPIOLineAddress("gpiochip0:28")) }
    #expect(throws: GPIOError.self) { _ = try directory.line(GPIOLineAddress("gpiochip0:GPIO99")) }
  }

  @Test func aChipPathWithNothingThereIsNotFoundAndTheChipsBesideItAreListed() throws {
    let fixture = try piChip()
    let directory = GPIOChipDirectory(path: fixture.path, standIn: SimulatedChips())
    let missing = fixture.path + "/gpiochip9"
    // Not `#expect(throws:)`'s result: Swift 6.0.3 (the arm64 build's) has none.
    var caught: GPIOError?
    do {
      _ = try directory.line(GPIOLineAddress(missing + ":5"))
    } catch {
      caught = error
    }
    #expect(
      caught
        == .chipNotFound(
          missing, available: ["gpiochip0 (pinctrl-bcm2711)", "gpiochip1 (raspberrypi-exp-gpio)"]))
    #expect(caught?.description.hasPrefix("There is no GPIO chip") == true)
  }

  @Test func theListingShowsEveryLineAndWhoUsesIt() throws {
    let fixture = try piChip()
    let listing = GPIOChipDirectory(path: fixture.path, standIn: SimulatedChips()).list()
    #expect(listing.unreadable.isEmpty)
    #expect(listing.chips.map(\.0.label) == ["pinctrl-bcm2711", "raspberrypi-exp-gpio"])
    let four = listing.chips[0].1[4]
    #expect(four.name == "GPIO4" && four.consumer == "w1-gpio" && four.flags.contains(.used))
  }
}

/// A GPIO output that records each level against a clock, and its release.
private final class RecordingOutput: GPIOOutput, @unchecked Sendable {
  private let torch: RecordingTorch
  private(set) var isReleased = false

  init(clock: any StepClock) { torch = RecordingTorch(clock: clock) }

  var events: [RecordingTorch.Event] { torch.events }
  func set(_ isActive: Bool) throws(GPIOError) { try? torch.set(isActive) }
  func release() { isReleased = true }
}

@Suite struct GPIOTorchTests {
  @Test func aLineKeysTheMessageOnScheduleAndIsLeftInactiveAndReleased() throws {
    let clock = ManualStepClock()
    let output = RecordingOutput(clock: clock)
    let torch = GPIOTorch(output: output)
    let transmitter = Transmitter(
      torch: torch, scheduler: StepScheduler(clock: clock, cancellation: Cancellation()),
      timing: MorseTiming(unit: .milliseconds(50)))
    #expect(try transmitter.send(try MorseMessage("N")) == .completed)
    try torch.restore()
    // N: dash 150, gap 50, dot 50; then inactive once more and released.
    #expect(
      output.events == timeline([0, 150, 200, 250]) + [.init(milliseconds: 250, isOn: false)])
    #expect(output.isReleased)
    try torch.set(true)
    #expect(output.events.count == 5, "a restored torch switches nothing")
  }

  /// Ctrl-Z: inactive while suspended, whatever is asked meanwhile; the level last asked when
  /// resumed.
  @Test func aSuspendedLineStaysInactiveUntilResumed() throws {
    let output = RecordingOutput(clock: ManualStepClock())
    let torch = GPIOTorch(output: output)
    try torch.set(true)
    try torch.suspend()
    try torch.set(false)
    try torch.set(true)
    #expect(output.events.map(\.isOn) == [true, false])
    try torch.resume()
    #expect(output.events.map(\.isOn) == [true, false, true])
    #expect(!output.isReleased)
  }
}

@Suite struct GPIODeviceTests {
  private func device(_ text: String, in fixture: TemporaryGPIODirectory, activeLow: Bool = false)
    throws -> GPIODevice
  {
    let line = try GPIOChipDirectory(path: fixture.path, standIn: SimulatedChips()).line(GPIOLineAddress(text))
    return GPIODevice(line: line, isActiveLow: activeLow)
  }

  @Test func aSessionDrivesTheLineAndLeavesItInactive() throws {
    let fixture = try piChip()
    let runtime = try RuntimeDirectory(path: fixture.path + "/run")
    let device = try device("gpiochip0:GPIO17", in: fixture, activeLow: true)
    #expect(device.id == .gpioLine(chip: "gpiochip0", offset: 17))
    #expect(device.id.lockName == "gpio/gpiochip0/17")
    guard
      case .reserved(let session) = try TransmitterSession.reserve(
        device, in: runtime, policy: .toggle, cancellation: Cancellation())
    else {
      Issue.record("not reserved")
      return
    }
    let claimed = try session.claim(text: "E", totalSymbols: 1)
    // Active low: inactive is the high level.
    #expect(fixture.value(chip: 0, line: 17) == "1\n")
    guard
      case .record(let record) = Transmissions.record(of: device.id, in: runtime)
    else {
      Issue.record("no record")
      return
    }
    #expect(
      record.saved
        == SavedGPIOLine(chip: fixture.chipPath(0), offset: 17, isActiveLow: true).fields)
    try claimed.torch.set(true)
    #expect(fixture.value(chip: 0, line: 17) == "0\n")
    _ = try claimed.finish(.success(.completed))
    #expect(fixture.value(chip: 0, line: 17) == "1\n")
  }

  @Test func aLineInUseIsBusyWithItsConsumerAndNothingIsDriven() throws {
    let fixture = try piChip()
    let device = try device("gpiochip0:4", in: fixture)
    #expect(throws: GPIOError.lineBusy(chip: "gpiochip0", offset: 4, consumer: "w1-gpio")) {
      _ = try device.saveState()
    }
    #expect(fixture.value(chip: 0, line: 4) == nil)
  }

  @Test func aLineLeftActiveByAKilledSenderIsDrivenInactiveFromItsRecord() throws {
    let fixture = try piChip()
    let runtime = try RuntimeDirectory(path: fixture.path + "/run")
    let device = try device("gpiochip0:17", in: fixture)
    // What a killed sender leaves: the line high, and the record.
    let saved = try device.saveState()
    try RuntimeFiles(name: device.id.lockName, directory: runtime).writeRecord(
      TransmissionRecord(
        pid: 99_999, device: device.id, text: "SOS", totalSymbols: 3, saved: saved))
    try Data("1\n".utf8).write(to: URL(fileURLWithPath: fixture.valuePath(chip: 0, line: 17)))
    let note = try TransmitterSession.recoverLeftover(of: device, in: runtime)
    #expect(note == .leftoverRestored(
        device: .gpioLine(chip: "gpiochip0", offset: 17), pid: 99_999,
        writerID: CurrentProcess.effectiveUserID))
    #expect(fixture.value(chip: 0, line: 17) == "0\n")
  }
}

@Suite("GPIO chips named by a state record")
struct RecordedChipTests {
  @Test func aSimulatedChipIsOnlyEverAllowedWhenAsked() throws {
    let fixture = try piChip()
    let strict = GPIOChipDirectory(path: fixture.path)
    #expect(throws: GPIOError.self) { _ = try strict.line(GPIOLineAddress("gpiochip0:17")) }
    #expect(throws: GPIOError.notRecordable(path: fixture.chipPath(0), directory: fixture.path)) {
      _ = try strict.recordedChip(fixture.chipPath(0))
    }
    let allowed = GPIOChipDirectory(path: fixture.path, standIn: SimulatedChips())
    #expect(try allowed.recordedChip(fixture.chipPath(0)) != nil)
  }

  @Test(arguments: ["/tmp", "/dev/../tmp/gpiochip0", "gpiochip0", "/dev/gpiochipX", "/dev/gpiochip"])
  func onlyAGPIOChipEntryOfTheDirectoryIsTaken(path: String) {
    let directory = GPIOChipDirectory(path: "/dev")
    #expect(throws: GPIOError.notRecordable(path: path, directory: "/dev")) {
      _ = try directory.recordedChip(path)
    }
  }

  @Test func aFIFOOrALinkInAChipsPlaceIsRefusedAtOnce() throws {
    let fixture = try piChip()
    let fifo = fixture.path + "/gpiochip7"
    #expect(mkfifo(fifo, 0o666) == 0)
    try FileManager.default.createSymbolicLink(
      atPath: fixture.path + "/gpiochip8", withDestinationPath: fixture.chipPath(0))
    let directory = GPIOChipDirectory(path: fixture.path, standIn: SimulatedChips())
    #expect(throws: GPIOError.notRecordable(path: fifo, directory: fixture.path)) {
      _ = try directory.recordedChip(fifo)
    }
    #expect(throws: GPIOError.notRecordable(path: fixture.path + "/gpiochip8", directory: fixture.path)) {
      _ = try directory.recordedChip(fixture.path + "/gpiochip8")
    }
  }
}
