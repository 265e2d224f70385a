import GPIODriver
import Instants
import LinuxSystem
import MorseCore
import MorseReceiving
import Synchronization

/// What tests inject into a `GPIODirectory` (and the `morsetorch-simulated-gpio` test build of
/// the tool) so a directory `gpiochipN` of plain files stands in for a chip (`SimulatedChip`).
public struct SimulatedChips: GPIOChipStandIn {
  public init() {}

  public func chip(at path: String, status: FileStatus) -> (any GPIOChip)? {
    status.isDirectory ? SimulatedChip(path: path) : nil
  }
}

/// A GPIO chip made of plain files, standing in for a kernel chip in tests: a directory `gpiochipN` in the GPIO directory (`MORSETORCH_GPIO_DIR`) with
/// `label` and `lines` (the number of lines), and per line a directory `line<OFFSET>` with an
/// optional `name`, an optional `consumer` (a line in use by someone else) and the `value`
/// morsetorch drives: the physical level, `1` or `0` (so an active-low line reads `0` when
/// active). An input line's edges are its `edges` file, in the form `receive --edges` reads
/// (physical levels): requested, it gives them at once, timed from the request.
final class SimulatedChip: GPIOChip {
  let path: String

  init(path: String) {
    self.path = path
  }

  func info() throws(GPIOError) -> GPIOChipFile.Info {
    let lines = Int(read("lines")) ?? 0
    return GPIOChipFile.Info(
      name: path.split(separator: "/").last.map(String.init) ?? path, label: read("label"),
      lines: lines)
  }

  func lineInfo(offset: Int) throws(GPIOError) -> GPIOChipFile.LineInfo {
    let consumer = read("line\(offset)/consumer")
    return GPIOChipFile.LineInfo(
      offset: offset, name: read("line\(offset)/name"), consumer: consumer,
      flags: consumer.isEmpty ? [] : [.used])
  }

  func requestOutput(offset: Int, flags: GPIOLineFlags, consumer: String) throws(GPIOError)
    -> any GPIOOutput
  {
    let info = try lineInfo(offset: offset)
    if info.flags.contains(.used) {
      throw .lineBusy(chip: try self.info().name, offset: offset, consumer: info.consumer)
    }
    let line = SimulatedLine(
      valuePath: path + "/line\(offset)/value", isActiveLow: flags.contains(.activeLow))
    try line.set(false)
    return line
  }

  /// The line's `edges` file, replayed from now.
  func requestInput(offset: Int, flags: GPIOLineFlags, consumer: String) throws(GPIOError)
    -> any GPIOInput
  {
    let info = try lineInfo(offset: offset)
    if info.flags.contains(.used) {
      throw .lineBusy(chip: try self.info().name, offset: offset, consumer: info.consumer)
    }
    var edges: [MorseEdge] = []
    let text = read("line\(offset)/edges")
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      do throws(EdgeText.Problem) {
        if let edge = try EdgeText.parse(line, number: index + 1, after: edges.last) {
          edges.append(edge)
        }
      } catch {
        throw .io(
          operation: "read (\(error))", path: path + "/line\(offset)/edges", errno: .invalidArgument
        )
      }
    }
    return SimulatedInput(edges: edges, isActiveLow: flags.contains(.activeLow))
  }

  /// A file's content without its trailing newline; empty if it cannot be read.
  private func read(_ name: String) -> String {
    let path = path + "/" + name
    guard let file = try? FileDescriptor.open(path, [.readOnly]),
      let bytes = try? file.readAll(limit: 4096)
    else { return "" }
    return String(decoding: bytes, as: UTF8.self).trimmingTrailingNewlines()
  }
}

/// An input line of a simulated chip: its edges at once, in the line's active sense, timed
/// from the request; then none.
private final class SimulatedInput: GPIOInput {
  private let events: Mutex<[GPIOLineRequest.Event]>
  private let isActiveLow: Bool

  init(edges: [MorseEdge], isActiveLow: Bool) {
    let origin = MonotonicTime.now() - (edges.first?.time.sinceOrigin ?? .zero)
    self.isActiveLow = isActiveLow
    events = Mutex(
      edges.enumerated().map { index, edge in
        GPIOLineRequest.Event(
          timestampNanoseconds: UInt64((origin + edge.time.sinceOrigin).sinceOrigin / .nanoseconds(1)),
          isRising: edge.isOn != isActiveLow, sequence: UInt32(index + 1))
      })
  }

  func isActive() -> Bool { isActiveLow }

  func nextEdge(within timeout: Duration, unlessFired stop: OneShotEvent)
    -> GPIOLineRequest.Event?
  {
    if let event = events.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return event }
    _ = stop.wait(untilMonotonic: MonotonicTime.now() + timeout)
    return nil
  }

  func release() {}
}

/// A line of a simulated chip: writes the physical level to its `value` file.
private final class SimulatedLine: GPIOOutput {
  private let valuePath: String
  private let isActiveLow: Bool
  private let isReleased = Mutex(false)

  init(valuePath: String, isActiveLow: Bool) {
    self.valuePath = valuePath
    self.isActiveLow = isActiveLow
  }

  func set(_ isActive: Bool) throws(GPIOError) {
    try isReleased.withLock { isReleased throws(GPIOError) in
      if isReleased { return }
      let level = isActive != isActiveLow
      do throws(Errno) {
        let file = try FileDescriptor.open(valuePath, [.writeOnly, .truncate, .create])
        try file.writeWhole(Array((level ? "1\n" : "0\n").utf8))
      } catch {
        throw GPIOError(error, operation: "set", path: valuePath)
      }
    }
  }

  func release() {
    isReleased.withLock { $0 = true }
  }
}

extension String {
  fileprivate func trimmingTrailingNewlines() -> String {
    var text = Substring(self)
    while text.last == "\n" { text = text.dropLast() }
    return String(text)
  }
}
