import GPIODriver
import Instants
import LinuxSystem
import MorseReceiving

/// `--gpio CHIP:LINE`: the line's edges as the kernel timestamps them, until a signal or the
/// timeout; while none comes, the time now every 50 ms (silence completes characters).
/// Closing releases the line.
final class GPIOLineSource: ReceiveSource {
  private let input: any GPIOInput
  private let cancellation: Cancellation
  private let deadline: MonotonicInstant?
  /// Whether the level the line had when asked for is yet to be read.
  private var isStarting = true

  /// Asks `chips` for `address` as an input with both edges (and `--active-low`, `--bias`);
  /// it ends when `cancellation` is cancelled or `timeout` has passed.
  init(
    _ address: GPIOLineAddress, isActiveLow: Bool, bias: GPIODevice.Bias?,
    chips: GPIOChipDirectory, cancellation: Cancellation, timeout: Duration?
  ) throws {
    var flags: GPIOLineFlags = [.input, .edgeRising, .edgeFalling]
    if isActiveLow { flags.insert(.activeLow) }
    if let bias { flags.insert(bias.flag) }
    let line = try chips.line(address)
    input = try line.chip.requestInput(
      offset: line.offset, flags: flags, consumer: GPIODevice.consumer)
    self.cancellation = cancellation
    deadline = timeout.map { MonotonicTime.now() + $0 }
  }

  /// Edges.
  var kind: ReceiveSourceKind { .edges }

  /// An edge at once if the line is already active; then each edge, or the time now after
  /// 50 ms without one.
  func next() throws -> MorseReading.Input? {
    if isStarting {
      isStarting = false
      if try input.isActive() { return .edge(MorseEdge(time: MonotonicTime.now(), isOn: true)) }
    }
    guard !cancellation.isCancelled else { return nil }
    let now = MonotonicTime.now()
    if let deadline, now >= deadline { return nil }
    let wait = min(.milliseconds(50), deadline.map { $0 - now } ?? .milliseconds(50))
    guard let event = try input.nextEdge(timeout: wait) else {
      return .quiet(until: MonotonicTime.now())
    }
    return .edge(
      MorseEdge(
        time: .origin + .nanoseconds(Int64(event.timestampNanoseconds)), isOn: event.isRising))
  }

  /// Releases the line.
  func close() {
    input.release()
  }
}
