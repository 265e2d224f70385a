import Instants
import LinuxSystem
import MorseCore
import MorsePlayer
import MorseReceiving

/// `send --dry-run --edges`: each element's two edges, in the text form `receive --edges`
/// reads, seconds from the start.
final class DryRunEdges: TransmissionObserver {
  private let origin: MonotonicInstant

  init(origin: MonotonicInstant) {
    self.origin = origin
  }

  func transmission(didBegin progress: Transmitter.Progress) {
    let step = progress.step
    guard step.kind == .dot || step.kind == .dash else { return }
    let start = MonotonicInstant.origin + (progress.start - origin)
    Console.output(EdgeText.format(MorseEdge(time: start, isOn: true)))
    Console.output(EdgeText.format(MorseEdge(time: start + step.duration, isOn: false)))
  }

  /// What the last line made goes out before the next is waited for.
  func transmissionIsWaitingForInput(line: Int) {
    Console.flushOutput()
  }
}
