import MorseCore

/// What `receive` prints: the receiver's output on standard output as it comes, a line
/// ended at the end.
struct ReceivedText {
  private var receiver: MorseReceiver
  private var isLineOpen = false
  private var isFinished = false

  init(receiver: MorseReceiver) {
    self.receiver = receiver
  }

  mutating func receive(_ edge: MorseEdge) {
    print(receiver.receive(edge))
  }

  mutating func advance(to time: Duration) {
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
