import LinuxSystem
import MorseCore
import MorsePlayer

/// An observer that records what a transmitter told it.
public final class RecordingObserver: TransmissionObserver, @unchecked Sendable {
  private let lock = Lock()
  private var steps: [Transmitter.Progress] = []
  private var validated: [(message: MorseMessage, number: Int)] = []
  private var waits: [Int] = []

  public init() {}

  /// Every step's progress, in order.
  public var progress: [Transmitter.Progress] { lock.withLock { steps } }
  /// Every line of streamed input announced, with its number.
  public var lines: [(message: MorseMessage, number: Int)] { lock.withLock { validated } }
  /// The input lines the transmitter waited for, in order.
  public var waitedForLines: [Int] { lock.withLock { waits } }

  public func transmission(didBegin progress: Transmitter.Progress) {
    lock.withLock { steps.append(progress) }
  }

  public func transmission(willSendLine message: MorseMessage, number: Int) {
    lock.withLock { validated.append((message, number)) }
  }

  public func transmissionIsWaitingForInput(line: Int) {
    lock.withLock { waits.append(line) }
  }
}
