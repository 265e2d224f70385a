import Instants
import LinuxSystem
import MorseReceiving
import SerialDriver

/// `--serial PORT:LINE`: a status line's changes (CTS, DSR, DCD, RI), timed as the kernel's
/// modem-status interrupt wakes the thread waiting for them (`SerialInput`), until `stop`
/// fires; while none comes, the time now every `quietTick` (silence completes characters).
///
/// Opening the port raises DTR and RTS (unless its kept speed is 0), as every open does:
/// a key wired from DTR or RTS to the line read takes its voltage from them. Closing ends
/// the wait and closes the port, which drops them again where HUPCL is set (the default).
public final class SerialLineSource: ReceiveSource {
  private let input: SerialInput
  private let isActiveLow: Bool
  private let stop: OneShotEvent
  /// Whether the level the line had when opened is yet to be given.
  private var isStarting = true

  /// How long a wait for a change lasts before the receiver is told the time.
  static let quietTick = Duration.milliseconds(50)

  /// Reads `input`'s line (marks low with `isActiveLow`: a key that grounds a line held up)
  /// until `stop` fires.
  public init(_ input: SerialInput, isActiveLow: Bool, stop: OneShotEvent) {
    self.input = input
    self.isActiveLow = isActiveLow
    self.stop = stop
  }

  /// Opens the port `address` names in `ports` and reads its line (`notAnInput` for none or
  /// an output).
  public convenience init(
    _ address: SerialPortAddress, isActiveLow: Bool, ports: SerialPortDirectory,
    stop: OneShotEvent
  ) throws(SerialError) {
    let port = try ports.port(address)
    guard let line = address.line, !line.isOutput else {
      throw .notAnInput(address.line ?? .dtr, path: port.path)
    }
    let opened = try SerialPort(path: port.path)
    let input: SerialInput
    do throws(SerialError) {
      if try opened.isExclusive() { throw .busy(path: port.path) }
      input = try SerialInput(port: opened, path: port.path, line: line)
    } catch {
      opened.close()
      throw error
    }
    self.init(input, isActiveLow: isActiveLow, stop: stop)
  }

  /// Edges.
  public var kind: ReceiveSourceKind { .edges }

  /// An edge at once if the line is already marking; then each change, or the time now after
  /// `quietTick` without one; nil once `stop` has fired.
  public func next() throws -> MorseReading.Input? {
    if isStarting {
      isStarting = false
      if input.initialLevel != isActiveLow {
        return .edge(MorseEdge(time: MonotonicTime.now(), isOn: true))
      }
    }
    guard !stop.isFired else { return nil }
    guard let change = try input.nextChange(within: Self.quietTick, unlessFired: stop) else {
      return stop.isFired ? nil : .quiet(until: MonotonicTime.now())
    }
    return .edge(MorseEdge(time: change.time, isOn: change.isUp != isActiveLow))
  }

  /// Ends the wait and closes the port.
  public func close() {
    input.close()
  }
}
