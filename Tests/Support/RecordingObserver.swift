import MorseCore
import MorsePlayer
import Synchronization

/// An observer that records what a transmitter told it.
public final class RecordingObserver: TransmissionObserver, Sendable {
  private let record = Mutex(Record())

  /// What it was told, in order; guarded by `record`.
  private struct Record {
    var steps: [Transmitter.Progress] = []
    var validated: [(message: MorseMessage, number: Int)] = []
    var waits: [Int] = []
    var overlong: [(kind: ControlSequenceKind, line: Int)] = []
  }

  public init() {}

  /// Every step's progress, in order.
  public var progress: [Transmitter.Progress] { record.withLock { $0.steps } }
  /// Every line of streamed input announced, with its number.
  public var lines: [(message: MorseMessage, number: Int)] { record.withLock { $0.validated } }
  /// The input lines the transmitter waited for, in order.
  public var waitedForLines: [Int] { record.withLock { $0.waits } }

  public func transmission(didBegin progress: Transmitter.Progress) {
    record.withLock { $0.steps.append(progress) }
  }

  public func transmission(willSendLine message: MorseMessage, number: Int) {
    record.withLock { $0.validated.append((message, number)) }
  }

  /// The control sequences reported as overlong, with their lines.
  public var overlong: [(kind: ControlSequenceKind, line: Int)] {
    record.withLock { $0.overlong }
  }

  public func transmission(droppedOverlong kind: ControlSequenceKind, line: Int) {
    record.withLock { $0.overlong.append((kind, line)) }
  }

  public func transmissionIsWaitingForInput(line: Int) {
    record.withLock { $0.waits.append(line) }
  }
}
