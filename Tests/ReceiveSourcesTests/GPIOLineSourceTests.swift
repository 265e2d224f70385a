import Foundation
import GPIODriver
import LinuxSystem
import MorseReceiving
import MorseTestSupport
import Testing

@testable import ReceiveSources

/// `receive --gpio`: one stop for the line, as for every source (a signal or `--timeout` fire
/// the stop event, which ends a wait for an edge).
@Suite struct GPIOLineSourceTests {
  private func source(edges: String, stop: OneShotEvent) throws
    -> (GPIOLineSource, TemporaryGPIODirectory)
  {
    let gpio = try TemporaryGPIODirectory()
    try gpio.addChip(0, label: "sim", lines: 4)
    try Data(edges.utf8).write(
      to: URL(fileURLWithPath: gpio.chipPath(0) + "/line2/edges"))
    let chips = GPIOChipDirectory(path: gpio.path, standIn: SimulatedChips())
    let source = try GPIOLineSource(
      try GPIOLineAddress("gpiochip0:2"), isActiveLow: false, bias: nil, chips: chips,
      stop: stop)
    return (source, gpio)
  }

  @Test func edgesThenTheTimeWhileQuietThenNothingOnceStopped() throws {
    let stop = OneShotEvent()
    let (source, gpio) = try source(edges: "0.000 1\n0.060 0\n", stop: stop)
    defer { source.close() }
    var edges: [Bool] = []
    while case .edge(let edge) = try source.next() { edges.append(edge.isOn) }
    #expect(edges == [true, false])
    _ = stop.fire()
    // Before: the source kept a deadline of its own and went on until it passed.
    #expect(try source.next() == nil)
    withExtendedLifetime(gpio) {}
  }

  @Test func aStopThatFiresDuringTheWaitEndsIt() throws {
    let stop = OneShotEvent()
    let (source, gpio) = try source(edges: "", stop: stop)
    defer { source.close() }
    try Threads.start { _ = stop.fire() }
    // Quiet ticks until the stop is seen, then the end (a wait the stop did not end would
    // give quiet ticks for ever: the test would not end).
    var ticks = 0
    while let input = try source.next() {
      guard case .quiet = input else {
        Issue.record("\(input)")
        break
      }
      ticks += 1
    }
    #expect(stop.isFired)
    withExtendedLifetime((gpio, ticks)) {}
  }
}
