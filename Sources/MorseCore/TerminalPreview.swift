/// Shows the light in a terminal, in real time, instead of an LED (`send --preview`).
///
/// It is a `Torch`, so it runs through the same scheduler as an LED. Switching only records
/// the state and wakes a drawing thread: writing to a slow terminal can never delay a step.
public final class TerminalPreview: Torch, @unchecked Sendable {
  private let lock = Lock()
  private let changed = ConditionVariable()
  private var isOn = false
  private var sending = ""
  private var generation = 0
  private var isStopped = false
  private let draw: @Sendable (String) -> Void
  private let finished = Cancellation()

  /// A preview that hands each frame to `draw` (by default, standard output).
  public init(draw: @escaping @Sendable (String) -> Void = TerminalPreview.writeToStandardOutput) {
    self.draw = draw
    startThread { [self] in drawLoop() }
  }

  /// Records the new state of the light and wakes the drawing thread.
  public func set(_ isOn: Bool) {
    lock.withLock {
      self.isOn = isOn
      generation += 1
      changed.signal()
    }
  }

  /// Records what is being sent, shown beside the light.
  public func show(_ progress: Transmitter.Progress) {
    let step = progress.step
    let text: String
    switch step.kind {
    case .dot, .dash, .elementGap: text = "\(step.symbol.text)  \(step.symbol.code)"
    case .letterGap, .wordGap: text = ""
    }
    lock.withLock {
      if !text.isEmpty { sending = text }
      generation += 1
      changed.signal()
    }
  }

  /// Draws the light off, ends the line and stops the drawing thread.
  public func restore() {
    lock.withLock {
      isOn = false
      isStopped = true
      generation += 1
      changed.signal()
    }
    finished.waitUntilCancelled()
  }

  /// The frame for a state: a carriage return, the light, and what is being sent.
  public static func frame(isOn: Bool, sending: String) -> String {
    let light = isOn ? "\u{1B}[7m        \u{1B}[0m" : "[      ]"
    return "\r\u{1B}[2K" + light + "  " + sending
  }

  /// Writes `text` to standard output at once.
  public static let writeToStandardOutput: @Sendable (String) -> Void = { text in
    _ = StandardStreams.write(text, to: .output)
  }

  private func drawLoop() {
    var drawnGeneration = -1
    while true {
      let (frame, stop): (String, Bool) = lock.withLock {
        while generation == drawnGeneration && !isStopped { changed.wait(lock) }
        drawnGeneration = generation
        return (Self.frame(isOn: isOn, sending: sending), isStopped)
      }
      draw(stop ? frame + "\n" : frame)
      if stop {
        finished.cancel()
        return
      }
    }
  }
}
