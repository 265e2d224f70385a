import LinuxSystem
import MorseTestSupport
import SerialDriver
import Testing

/// `receive --serial`'s waiting thread: each change of the line read once, in order, with the
/// level after it; a stop ends the wait for one; close ends the thread waiting in the port.
@Suite struct SerialInputTests {
  private func opened(_ levels: SerialLevels = SerialLevels()) -> (
    SimulatedSerialPort, any SerialPortFile & SerialStatusLines
  ) {
    let port = SimulatedSerialPort(
      levels: levels, settings: SerialSettings(speedIsZero: true, hangsUpOnClose: true))
    return (port, port.open())
  }

  @Test func eachChangeOfTheLineInOrderWithItsLevel() throws {
    let (port, file) = opened(SerialLevels(raised: [.cts]))
    let input = try SerialInput(port: file, path: "/dev/ttyS0", line: .cts)
    defer { input.close() }
    #expect(input.initialLevel)
    let stop = OneShotEvent()
    var seen: [SerialInput.Change] = []
    for up in [false, true, false] {
      port.waitUntilWaiting()
      port.drive(.cts, up: up)
      if let change = try input.nextChange(within: .seconds(10), unlessFired: stop) {
        seen.append(change)
      }
    }
    #expect(seen.map(\.isUp) == [false, true, false])
    #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.time <= $1.time })
  }

  @Test func aChangeOfAnotherLineIsNoChangeOfThisOne() throws {
    let (port, file) = opened()
    let input = try SerialInput(port: file, path: "/dev/ttyS0", line: .dsr)
    defer { input.close() }
    port.waitUntilWaiting()
    port.drive(.cts, up: true)
    port.waitUntilWaiting()
    port.drive(.dsr, up: true)
    let change = try input.nextChange(within: .seconds(10), unlessFired: OneShotEvent())
    #expect(change?.isUp == true)
    #expect(try input.nextChange(within: .milliseconds(20), unlessFired: OneShotEvent()) == nil)
  }

  @Test func aStopEndsTheWaitForAChange() throws {
    let (_, file) = opened()
    let input = try SerialInput(port: file, path: "/dev/ttyS0", line: .cts)
    defer { input.close() }
    let stop = OneShotEvent()
    try Threads.start { _ = stop.fire() }
    // Without the stop, this waits an hour: the test would not end.
    #expect(try input.nextChange(within: .seconds(3600), unlessFired: stop) == nil)
  }

  @Test func closeWakesTheThreadWaitingInThePort() throws {
    let (port, file) = opened()
    let input = try SerialInput(port: file, path: "/dev/ttyS0", line: .ri)
    port.waitUntilWaiting()
    input.close()
    #expect(port.wakes >= 1)
    // The port is closed once the thread has left it.
    #expect(throws: SerialError.self) { try file.levels() }
  }

  @Test func aPortThatGoesAwayIsTheNextChangesError() throws {
    let (port, file) = opened()
    let input = try SerialInput(port: file, path: "/dev/ttyUSB0", line: .cts)
    defer { input.close() }
    port.waitUntilWaiting()
    let gone = SerialError.vanished(path: "/dev/ttyUSB0", errno: .ioError)
    port.vanish(gone)
    #expect(throws: gone) {
      try input.nextChange(within: .seconds(10), unlessFired: OneShotEvent())
    }
  }

  @Test func anOutputCannotBeRead() {
    let (_, file) = opened()
    for line in [SerialLine.dtr, .rts] {
      #expect(throws: SerialError.notAnInput(line, path: "/dev/ttyS0")) {
        try SerialInput(port: file, path: "/dev/ttyS0", line: line)
      }
    }
  }
}
