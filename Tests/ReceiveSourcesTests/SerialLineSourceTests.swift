import LinuxSystem
import MorseReceiving
import MorseTestSupport
import SerialDriver
import Testing

@testable import ReceiveSources

/// `receive --serial`: the line's changes as edges (marks high, or low with `--active-low`),
/// an edge at once for a line already marking, the time while quiet, nothing once stopped.
@Suite struct SerialLineSourceTests {
  private func source(_ levels: SerialLevels, isActiveLow: Bool, stop: OneShotEvent) throws
    -> (SerialLineSource, SimulatedSerialPort)
  {
    let port = SimulatedSerialPort(
      levels: levels, settings: SerialSettings(speedIsZero: true, hangsUpOnClose: true))
    let input = try SerialInput(port: port.open(), path: "/dev/ttyS0", line: .cts)
    return (SerialLineSource(input, isActiveLow: isActiveLow, stop: stop), port)
  }

  /// The edges `source` gives while `port`'s CTS moves to each of `levels`, then the next
  /// input (quiet, with nothing more).
  private func edges(
    _ source: SerialLineSource, _ port: SimulatedSerialPort, moving levels: [Bool]
  ) throws -> [Bool] {
    var edges: [Bool] = []
    var pending = levels[...]
    while edges.count < levels.count {
      if let level = pending.popFirst() {
        port.waitUntilWaiting()
        port.drive(.cts, up: level)
      }
      guard let input = try source.next() else { break }
      if case .edge(let edge) = input { edges.append(edge.isOn) }
    }
    return edges
  }

  @Test func changesAreEdgesMarksHigh() throws {
    let stop = OneShotEvent()
    let (source, port) = try source(SerialLevels(), isActiveLow: false, stop: stop)
    defer { source.close() }
    #expect(try edges(source, port, moving: [true, false, true]) == [true, false, true])
    guard case .quiet = try source.next() else {
      Issue.record("no quiet tick after the last change")
      return
    }
    _ = stop.fire()
    #expect(try source.next() == nil)
  }

  @Test func activeLowMarksWhileTheLineIsDownAndALineAlreadyMarkingIsAnEdgeAtOnce() throws {
    let (source, port) = try source(SerialLevels(), isActiveLow: true, stop: OneShotEvent())
    defer { source.close() }
    guard case .edge(let first) = try source.next() else {
      Issue.record("a line marking when opened gave no edge")
      return
    }
    #expect(first.isOn)
    #expect(try edges(source, port, moving: [true, false]) == [false, true])
  }

  @Test func aStopDuringTheWaitEndsIt() throws {
    let stop = OneShotEvent()
    let (source, _) = try source(SerialLevels(), isActiveLow: false, stop: stop)
    defer { source.close() }
    try Threads.start { _ = stop.fire() }
    while let input = try source.next() {
      guard case .quiet = input else {
        Issue.record("\(input)")
        break
      }
    }
    #expect(stop.isFired)
  }
}
