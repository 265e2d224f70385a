import GPIODriver
import Instants
import LinuxSystem
import MorseReceiving

/// `--gpio CHIP:LINE`: the line's edges as the kernel timestamps them, until `stop` fires (a
/// signal, `--timeout`), waited for with the line in one `poll(2)`; while no edge comes, the
/// time now every `quietTick` (silence completes characters). Closing releases the line.
public final class GPIOLineSource: ReceiveSource {
  private let input: any GPIOInput
  private let stop: OneShotEvent
  /// Whether the level the line had when asked for is yet to be read.
  private var isStarting = true

  /// How long a wait for an edge lasts before the receiver is told the time: what a
  /// character's end waits on at most beyond its gap.
  static let quietTick = Duration.milliseconds(50)

  /// Asks `chips` for `address` as an input with both edges (and `--active-low`, `--bias`);
  /// it ends when `stop` fires.
  public init(
    _ address: GPIOLineAddress, isActiveLow: Bool, bias: GPIODevice.Bias?,
    chips: GPIOChipDirectory, stop: OneShotEvent
  ) throws {
    var flags: GPIOLineFlags = [.input, .edgeRising, .edgeFalling]
    if isActiveLow { flags.insert(.activeLow) }
    if let bias { flags.insert(bias.flag) }
    let line = try chips.line(address)
    input = try line.chip.requestInput(
      offset: line.offset, flags: flags, consumer: GPIODevice.consumer)
    self.stop = stop
  }

  /// Edges.
  public var kind: ReceiveSourceKind { .edges }

  /// An edge at once if the line is already active; then each edge, or the time now after
  /// `quietTick` without one; nil once `stop` has fired.
  public func next() throws -> MorseReading.Input? {
    if isStarting {
      isStarting = false
      if try input.isActive() { return .edge(MorseEdge(time: MonotonicTime.now(), isOn: true)) }
    }
    guard !stop.isFired else { return nil }
    guard let event = try input.nextEdge(within: Self.quietTick, unlessFired: stop) else {
      return stop.isFired ? nil : .quiet(until: MonotonicTime.now())
    }
    return .edge(
      MorseEdge(
        time: .origin + .nanoseconds(Int64(event.timestampNanoseconds)), isOn: event.isRising))
  }

  /// Releases the line.
  public func close() {
    input.release()
  }
}
