import MorsePlayer

/// `--echo`: each character on standard output as soon as its last element has ended, a space
/// at a word gap, and a line break at the end of each message (each round of a repeated one,
/// each line of standard input).
///
/// The text goes to `write`, which must not block the transmitting thread (a writer thread of
/// its own, by default).
final class EchoObserver: TransmissionObserver {
  private let write: (String) -> Void
  private var pending: String?
  /// Whether what was written ends a line (or nothing was written).
  private var isAtLineStart = true

  init(write: @escaping (String) -> Void) {
    self.write = write
  }

  func transmission(didBegin progress: Transmitter.Progress) {
    switch progress.step.kind {
    case .dot, .dash:
      // A step that begins a character: the character before it was already let go.
      if pending == nil { pending = progress.step.symbol.text }
    case .elementGap:
      break
    case .letterGap:
      flush("")
    case .wordGap:
      flush(" ")
    }
  }

  func transmissionDidFinishMessage(line: Int, round: Int) {
    flush("\n")
  }

  /// Ends the line a stop cut short, so that what is said next starts a line of its own; a
  /// character whose last element never ended is not echoed.
  func endLine() {
    pending = nil
    if !isAtLineStart { emit("\n") }
  }

  private func flush(_ separator: String) {
    guard let character = pending else { return }
    pending = nil
    emit(character + separator)
  }

  private func emit(_ text: String) {
    write(text)
    isAtLineStart = text.hasSuffix("\n")
  }
}
