import LinuxSystem
import MorsePlayer

/// Shows the light in a terminal, in real time, instead of an LED (`send --preview`).
///
/// It is a `Torch`, so it runs through the same scheduler as an LED. Switching only records
/// the state and wakes a drawing thread: writing to a slow terminal can never delay a step.
///
/// Plain, for a pipe, a file or `TERM=dumb`, it writes no escape sequence and no carriage
/// return: one line per character as it starts (`S ...`), and nothing else.
final class TerminalPreview: Torch, TransmissionObserver, @unchecked Sendable {
  private let isPlain: Bool
  private var plainLines: [String] = []
  private var symbolsShown = 0
  private let lock = Lock()
  private let changed = ConditionVariable()
  private var isOn = false
  private var sending = ""
  private var generation = 0
  private var isStopped = false
  private var status: StreamWriter.Frame?
  private let draw: @Sendable (String) -> Void
  private let finished = OneShotEvent()

  /// A preview that hands each frame to `draw` (by default, standard output); plain lines
  /// instead of frames when `isPlain`.
  init(
    isPlain: Bool = false,
    draw: @escaping @Sendable (String) -> Void = TerminalPreview.writeToStandardOutput
  ) throws(Errno) {
    self.isPlain = isPlain
    self.draw = draw
    try Threads.start { [self] in drawLoop() }
  }

  /// Records the new state of the light and wakes the drawing thread (plain: nothing to draw).
  func set(_ isOn: Bool) {
    guard !isPlain else { return }
    lock.withLock {
      self.isOn = isOn
      generation += 1
      changed.signal()
    }
  }

  /// Records what is being sent, shown beside the light.
  func transmission(didBegin progress: Transmitter.Progress) {
    let step = progress.step
    let text: String
    switch step.kind {
    case .dot, .dash, .elementGap: text = "\(step.symbol.text)  \(step.symbol.code)"
    case .letterGap, .wordGap: text = ""
    }
    lock.withLock {
      if isPlain {
        // One line per character, as its first element begins.
        guard progress.symbolsBegun > symbolsShown else { return }
        symbolsShown = progress.symbolsBegun
        plainLines.append("\(step.symbol.text) \(step.symbol.code)\n")
      }
      if !text.isEmpty { sending = text }
      generation += 1
      changed.signal()
    }
  }

  /// Shows `status` (the progress) after the light; plain previews show none.
  func showStatus(_ status: @escaping StreamWriter.Frame) {
    guard !isPlain else { return }
    lock.withLock {
      self.status = status
      generation += 1
      changed.signal()
    }
  }

  /// Draws the light off, ends the line (plain: writes the lines still due) and stops the
  /// drawing thread.
  func restore() {
    lock.withLock {
      isOn = false
      isStopped = true
      generation += 1
      changed.signal()
    }
    finished.wait()
  }

  /// The frame for a state: a carriage return, the light, and what is being sent.
  static func frame(isOn: Bool, sending: String) -> String {
    let light = isOn ? "\u{1B}[7m        \u{1B}[0m" : "[      ]"
    return "\r\u{1B}[2K" + light + "  " + sending
  }

  /// Writes `text` to standard output at once.
  static let writeToStandardOutput: @Sendable (String) -> Void = { text in
    Console.write(text)
  }

  private func drawLoop() {
    var drawnGeneration = -1
    while true {
      let (text, stop): (String, Bool) = lock.withLock {
        while generation == drawnGeneration && !isStopped { changed.wait(lock) }
        drawnGeneration = generation
        guard !isPlain else {
          defer { plainLines = [] }
          return (plainLines.joined(), isStopped)
        }
        let frame =
          Self.frame(isOn: isOn, sending: sending)
          + (status.map { "  " + $0(MonotonicTime.now()) } ?? "")
        return (isStopped ? frame + "\n" : frame, isStopped)
      }
      if !text.isEmpty { draw(text) }
      if stop {
        finished.fire()
        return
      }
    }
  }
}
