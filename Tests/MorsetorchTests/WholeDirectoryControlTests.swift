import Foundation
import Glibc
import LEDDriver
import MorseTestSupport
import Testing

@testable import GPIODriver
@testable import TransmitterControl

/// `status` and `stop` without `--led`: every device with a lock file in the shared runtime
/// directory, where a member of the group may plant what cannot be used, and hold locks with
/// processes that never answer.
@Suite(
  .enabled(if: getuid() == 0 && MorsetorchProcess.canRunUnprivileged, "needs root and setpriv"))
struct WholeDirectoryControlTests {
  @Test func stopMeetsEveryHoldersAtOnceAndPassesOverLockFilesOfNoDevice() throws {
    let (fixture, runtime) = try SharedLED.make()
    let leds = ["input3::capslock", "input4::numlock", "input5::scrolllock"]
    for led in leds.dropFirst() { try fixture.addLED(led) }
    let holders = try (leds + ["fake1", "fake2"]).map {
      try HostileHolder(runtime: runtime, name: $0)
    }

    let started = ContinuousClock.now
    let outcome = try SharedLED.run(["stop"], fixture, runtime: runtime)
    let took = ContinuousClock.now - started

    #expect(outcome.exitStatus == 0, "\(outcome)")
    for (led, holder) in zip(leds, holders) {
      #expect(outcome.standardOutput.contains("on LED \(led) (pid \(holder.pid))"), "\(outcome)")
      #expect(FileManager.default.fileExists(atPath: runtime + "/\(led).asked"))
    }
    // Lock files that name no LED: their holders are not even asked.
    #expect(!FileManager.default.fileExists(atPath: runtime + "/fake1.asked"))
    #expect(!outcome.standardOutput.contains("fake"), "\(outcome)")
    // Each holder costs the patience once (5 s asked, 5 s after SIGTERM); one after another,
    // three took 30 s.
    #expect(took < .seconds(20), "\(took)")
  }

  @Test func aLockHeldByNoProcessDoesNotFailTheWholeDirectoryCommands() throws {
    let (fixture, runtime) = try SharedLED.make()
    try fixture.addLED("input4::numlock")
    let lock = try #require(OpenFileDescriptionLock(path: runtime + "/input4::numlock.lock"))
    defer { withExtendedLifetime(lock) {} }
    let sender = try MorsetorchProcess(
      ["send", "--led", "input3::capslock", "--unit", "300", "TTTTT"],
      ledsDirectory: fixture.ledsPath, runtimeDirectory: runtime)
    sender.closeInput()
    #expect(try eventually { FileManager.default.fileExists(atPath: runtime + "/input3::capslock.state") })

    // Before: both exited 75, although they listed and stopped the transmission.
    let status = try SharedLED.run(["status"], fixture, runtime: runtime)
    #expect(status.exitStatus == 0, "\(status)")
    #expect(status.standardOutput.contains("input3::capslock"), "\(status)")
    #expect(status.standardError.contains("input4::numlock.lock"), "\(status)")
    let stop = try SharedLED.run(["stop"], fixture, runtime: runtime)
    #expect(stop.exitStatus == 0, "\(stop)")
    #expect(stop.standardError.contains("input4::numlock.lock"), "\(stop)")
    #expect(try sender.wait().exitStatus == 143)
    // Named, it is the error it is.
    let named = try SharedLED.run(["status", "--led", "input4::numlock"], fixture, runtime: runtime)
    #expect(named.exitStatus == 75, "\(named)")
  }

  @Test func aPlantedGPIORecordOfNoChipDoesNotFailTheWholeDirectoryCommands() throws {
    let (fixture, runtime) = try SharedLED.make()
    let gpio = fixture.root + "/dev"
    try FileManager.default.createDirectory(atPath: gpio, withIntermediateDirectories: true)
    try SharedLED.plant(
      SavedGPIOLine(chip: gpio + "/gpiochip7", offset: 3, isActiveLow: false).fields,
      name: "gpio/gpiochip7/3", runtime: runtime)
    let environment = ["MORSETORCH_GPIO_DIR": gpio]

    // Before: 65, "no GPIO chip".
    for command in [["status"], ["stop"]] {
      let outcome = try SharedLED.run(command, fixture, runtime: runtime, environment: environment)
      #expect(outcome.exitStatus == 3, "\(outcome)")
    }
  }

  @Test func statusAndStopKeepTheRecordsTheyCannotUseAndTheDevicesNextSendRemovesThem() throws {
    let (fixture, runtime) = try SharedLED.make()
    try fixture.addLED("input4::numlock")
    // One whose saved state is no LED's, one that is no record at all.
    let implausible = try SharedLED.plant(
      SavedGPIOLine(chip: "/dev/gpiochip0", offset: 3, isActiveLow: false).fields,
      name: "input3::capslock", runtime: runtime)
    let garbled = try SharedLED.plant(
      SavedGPIOLine(chip: "/dev/gpiochip0", offset: 3, isActiveLow: false).fields,
      name: "input4::numlock", runtime: runtime)
    try Data("morsetorch state record 2\npid x\n".utf8).write(to: URL(fileURLWithPath: garbled))

    // Before: status removed the first and kept the second.
    for command in [["status"], ["stop"]] {
      let outcome = try SharedLED.run(command, fixture, runtime: runtime)
      #expect(outcome.exitStatus == 3, "\(outcome)")
      #expect(outcome.standardError.contains("ignoring the state record \(implausible)"))
      #expect(outcome.standardError.contains("ignoring the state record \(garbled)"))
      #expect(FileManager.default.fileExists(atPath: implausible), "\(outcome)")
      #expect(FileManager.default.fileExists(atPath: garbled), "\(outcome)")
    }
    for led in ["input3::capslock", "input4::numlock"] {
      let sent = try SharedLED.run(["send", "--led", led, "--unit", "1", "E"], fixture, runtime: runtime)
      #expect(sent.exitStatus == 0, "\(sent)")
    }
    #expect(!FileManager.default.fileExists(atPath: implausible))
    #expect(!FileManager.default.fileExists(atPath: garbled))
  }

  @Test func aTransmissionOnSeveralLEDsIsStoppedAndSaidOnce() throws {
    let (fixture, runtime) = try SharedLED.make()
    try fixture.addLED("input4::numlock")
    let sender = try MorsetorchProcess(
      ["send", "--led", "input3::capslock", "--led", "input4::numlock", "--unit", "300", "TTTTT"],
      ledsDirectory: fixture.ledsPath, runtimeDirectory: runtime)
    sender.closeInput()
    #expect(try eventually { FileManager.default.fileExists(atPath: runtime + "/input4::numlock.state") })

    let stop = try SharedLED.run(["stop"], fixture, runtime: runtime)

    #expect(stop.exitStatus == 0, "\(stop)")
    let said = stop.standardOutput.split(separator: "\n").filter { $0.contains("stopped") }
    #expect(said.count == 1, "\(stop)")
    #expect(try sender.wait().exitStatus == 143)
  }

  @Test(arguments: [UInt32(0), SharedLED.member])
  func aRestoreThatFailsFailsTheWholeDirectoryStopOnlyForTheRecordsOwnWriter(
    owner: UInt32
  ) throws {
    let status: Int32 = owner == 0 ? 74 : 3
    let (fixture, runtime) = try SharedLED.make()
    // The trigger cannot be written back (here, `trigger` is a directory).
    let trigger = fixture.devicePath(of: "input3::capslock") + "/trigger"
    try FileManager.default.removeItem(atPath: trigger)
    try FileManager.default.createDirectory(atPath: trigger, withIntermediateDirectories: false)
    let saved = SavedLEDState(trigger: "timer", brightness: 0, triggerAttributes: [])
    let record = try SharedLED.plant(
      saved.fields, name: "input3::capslock", runtime: runtime, owner: owner)

    let outcome = try SharedLED.run(["stop"], fixture, runtime: runtime)

    #expect(outcome.exitStatus == status, "\(outcome)")
    #expect(outcome.standardError.contains("Is a directory"), "\(outcome)")
    #expect(FileManager.default.fileExists(atPath: record))
  }
}
