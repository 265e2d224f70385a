import LinuxSystem
import DeviceContract
import MorsePlayer

/// Shows the light in a terminal, in real time, instead of an LED (`send --preview`).
///
/// It is a `Torch`, so it runs through the same scheduler as an LED. Switching only records
/// the state and wakes a drawing thread: writing to a slow terminal can never delay a step.
///
/// Plain, for a pipe, a file or `TERM=dumb`, it writes no escape sequence and no carriage
/// return: one line per character as it starts (`S ...`), and nothing else.
final class TerminalPreview: Torch, TransmissionObserver, Sendable {
  /// What the drawing thread draws, changed by the transmission's thread.
  private struct State {
    var plainLines: [String] = []
    var symbolsShown = 0
    var isOn = false
    var sending = ""
    /// Counts changes, so the drawing thread knows whether it has drawn the latest.
    var generation = 0
    var isStopped = false
    var status: StreamWriter.Frame?
  }

  private let isPlain: Bool
  private let state = Monitor(State())
  private let draw: @Sendable (String) -> Void
  private let width: @Sendable () -> Int
  private let drawer = WorkerThread()

  /// A preview that hands each frame to `draw` (by default, standard output), `width` columns
  /// wide (asked at each frame: the window may be resized); plain lines instead of frames
  /// when `isPlain`.
  init(
    isPlain: Bool = false,
    draw: @escaping @Sendable (String) -> Void = TerminalPreview.writeToStandardOutput,
    width: @escaping @Sendable () -> Int = { StandardStreams.columns(of: .output) ?? 80 }
  ) throws(Errno) {
    self.isPlain = isPlain
    self.width = width
    self.draw = draw
    try drawer.start { [self] in drawLoop() }
  }

  /// Records the new state of the light and wakes the drawing thread (plain: nothing to draw).
  func set(_ isOn: Bool) {
    guard !isPlain else { return }
    change { $0.isOn = isOn }
  }

  /// Records what is being sent, shown beside the light.
  func transmission(didBegin progress: Transmitter.Progress) {
    let step = progress.step
    let text: String
    switch step.kind {
    case .dot, .dash, .elementGap: text = "\(step.symbol.text)  \(step.symbol.code)"
    case .letterGap, .wordGap: text = ""
    }
    changeIf { [isPlain] state in
      if isPlain {
        // One line per character, as its first element begins.
        guard progress.symbolsBegun > state.symbolsShown else { return false }
        state.symbolsShown = progress.symbolsBegun
        state.plainLines.append("\(step.symbol.text) \(step.symbol.code)\n")
      }
      if !text.isEmpty { state.sending = text }
      return true
    }
  }

  /// Shows `status` (the progress) after the light; plain previews show none.
  func showStatus(_ status: @escaping StreamWriter.Frame) {
    guard !isPlain else { return }
    change { $0.status = status }
  }

  /// Draws the light off, ends the line (plain: writes the lines still due) and stops the
  /// drawing thread.
  func restore() {
    change {
      $0.isOn = false
      $0.isStopped = true
    }
    drawer.wait()
  }

  /// The frame for a state: a carriage return, the light, what is being sent and `status`,
  /// in at most `width - 1` columns so that it never wraps (a wrapped line cannot be redrawn
  /// in place): the light narrowed to what fits (8 columns), then what fits of the rest.
  static func frame(isOn: Bool, sending: String, status: String = "", width: Int = 80) -> String {
    let columns = max(0, width - 1)
    let lightColumns = min(8, columns)
    let light: String
    if isOn {
      let block = String(repeating: " ", count: lightColumns)
      light = block.isEmpty ? "" : "\u{1B}[7m" + block + "\u{1B}[0m"
    } else {
      let inside = String(repeating: " ", count: max(0, lightColumns - 2))
      light = lightColumns < 2 ? String(repeating: " ", count: lightColumns) : "[" + inside + "]"
    }
    let rest = TerminalText.cut("  " + sending + status, to: columns - lightColumns)
    return "\r\u{1B}[2K" + light + rest
  }

  /// Writes `text` to standard output at once.
  static let writeToStandardOutput: @Sendable (String) -> Void = { text in
    Console.write(text)
  }

  /// Applies `body` to the state and wakes the drawing thread.
  private func change(_ body: (inout State) -> Void) {
    changeIf { state in
      body(&state)
      return true
    }
  }

  /// Applies `body` to the state and, if it says it changed something, wakes the drawing
  /// thread.
  private func changeIf(_ body: (inout State) -> Bool) {
    let changed = state.withLock { state in
      guard body(&state) else { return false }
      state.generation += 1
      return true
    }
    if changed { state.wakeWaiters() }
  }

  private func drawLoop() {
    var drawnGeneration = -1
    var isStopped = false
    while !isStopped {
      let text = state.wait(until: { $0.generation != drawnGeneration || $0.isStopped }) {
        [isPlain, width] state in
        drawnGeneration = state.generation
        isStopped = state.isStopped
        guard !isPlain else {
          defer { state.plainLines = [] }
          return state.plainLines.joined()
        }
        let status = state.status.map { "  " + $0(MonotonicTime.now()) } ?? ""
        let frame = Self.frame(
          isOn: state.isOn, sending: state.sending, status: status, width: width())
        return state.isStopped ? frame + "\n" : frame
      }
      if !text.isEmpty { draw(text) }
    }
  }
}
