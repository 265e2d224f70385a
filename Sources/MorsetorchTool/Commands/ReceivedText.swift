import Instants
import MorseCore
import MorseReceiving

/// What `receive` prints: the receiver's output on standard output as it comes, a line
/// ended at the end.
struct ReceivedText {
  private var receiver: MorseReceiver
  /// `--edges-out`: where each edge is also written.
  private let recorder: EdgeRecorder?
  private var isLineOpen = false
  private var isFinished = false

  init(receiver: MorseReceiver, recorder: EdgeRecorder? = nil) {
    self.receiver = receiver
    self.recorder = recorder
  }

  /// Decodes `edge` (and writes it to the `--edges-out` file).
  mutating func receive(_ edge: MorseEdge) throws(EdgeRecorder.Failure) {
    try recorder?.record(edge)
    print(receiver.receive(edge))
  }

  mutating func advance(to time: MonotonicInstant) {
    print(receiver.advance(to: time))
  }

  /// The last character, and the end of the line; once.
  mutating func finish() {
    guard !isFinished else { return }
    isFinished = true
    print(receiver.finish())
    if isLineOpen { Console.write("\n") }
  }

  private mutating func print(_ outputs: [MorseReceiver.Output]) {
    for output in outputs {
      switch output {
      case .text(let text):
        Console.write(TerminalText.escaped(text))
        isLineOpen = true
      case .space:
        Console.write(" ")
      case .lineBreak:
        Console.write("\n")
        isLineOpen = false
      }
    }
  }
}
