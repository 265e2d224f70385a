import Foundation
import Instants
import LinuxSystem
import DeviceContract
import MorseTestSupport
import Testing

@testable import TransmitterControl

@Suite("Transmissions")
struct TransmissionsTests {
  @Test func aLineHasOneLockNameSoTheDirectoryListsItOnce() throws {
    let fixture = try TemporaryLEDDirectory()
    let runtime = try RuntimeDirectory(path: fixture.root + "/run")
    // Planted beside the real name: `017` and `+17` name no lock file morsetorch makes.
    for stem in ["gpio%2Fgpiochip0%2F17", "gpio%2Fgpiochip0%2F017", "gpio%2Fgpiochip0%2F0"] {
      try Data().write(to: URL(fileURLWithPath: runtime.path + "/\(stem).lock"))
    }
    #expect(
      try Transmissions.devices(in: runtime) == [
        .gpioLine(chip: "gpiochip0", offset: 0), .gpioLine(chip: "gpiochip0", offset: 17),
      ])
    #expect(DeviceID(lockName: "gpio/gpiochip0/017") == nil)
    #expect(DeviceID(lockName: "gpio/gpiochip0/0") == .gpioLine(chip: "gpiochip0", offset: 0))
  }

  /// A process that holds `path`'s lock, ignores SIGTERM and has no stop socket: a holder that
  /// will not stop when asked. Returns once it holds the lock.
  private func stubbornHolder(of path: String) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [
      "-c",
      "import fcntl, signal, sys, time\n"
        + "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        + "f = open(sys.argv[1], 'w'); fcntl.lockf(f, fcntl.LOCK_EX)\n"
        + "print('locked', flush=True); time.sleep(60)\n",
      path,
    ]
    let output = Foundation.Pipe()
    process.standardOutput = output
    try process.run()
    _ = output.fileHandleForReading.availableData  // "locked"
    return process
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
  func givingUpWhileStoppingNeverKillsTheHolder() throws {
    let fixture = try TemporaryLEDDirectory()
    let runtime = try RuntimeDirectory(path: fixture.root + "/run")
    let holder = try stubbornHolder(of: RuntimeFiles(name: "a", directory: runtime).lock)
    defer {
      holder.terminate()
      kill(holder.processIdentifier, SIGKILL)
    }
    let cancellation = Cancellation()
    try Threads.start {
      _ = OneShotEvent().wait(untilMonotonic: MonotonicTime.now() + .milliseconds(300))
      cancellation.cancel()  // Ctrl-C on the rerun that is stopping the holder
    }
    let started = MonotonicTime.now()
    let stopped = try Transmissions.stop(
      .led("a"), in: runtime, patience: .seconds(5), unless: cancellation)
    #expect(stopped == nil)
    // Before: no way to give up; after 5 s of patience the holder got SIGKILL.
    #expect(MonotonicTime.now() - started < .seconds(4))
    #expect(holder.isRunning, "the holder was killed because the one stopping it was signalled")
  }
}
