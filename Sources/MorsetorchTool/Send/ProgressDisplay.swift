import LinuxSystem
import MorsePlayer

/// The progress line on a terminal: the transmitting thread only records the state and hands
/// a frame to the writer of standard error, which keeps only the latest one and draws it in
/// place (`StreamWriter`); nothing on the timing path waits for the terminal.
final class ProgressDisplay: TransmissionObserver {
  private var state: ProgressState
  private let color: Bool
  private let compact: Bool
  private let width: @Sendable () -> Int
  private let show: (@escaping StreamWriter.Frame) -> Void

  /// A display starting from `state` (what is known before the first step), in colour or
  /// not, `compact` (without light and character) or not, `width` columns wide, handing
  /// frames to `show`.
  init(
    state: ProgressState, color: Bool, compact: Bool = false,
    width: @escaping @Sendable () -> Int = { StandardStreams.columns(of: .error) ?? 80 },
    show: @escaping (@escaping StreamWriter.Frame) -> Void = { Console.showFrame($0) }
  ) {
    self.state = state
    self.color = color
    self.compact = compact
    self.width = width
    self.show = show
  }

  func transmission(didBegin progress: Transmitter.Progress) {
    let step = progress.step
    state.symbol = TerminalText.escaped(step.symbol.text)
    state.code = step.symbol.code.description
    state.isOn = step.kind == .dot || step.kind == .dash
    state.symbolsBegun = progress.symbolsBegun
    state.round = progress.round
    if state.totalSymbols == nil { state.line = progress.line }
    state.isWaitingForInput = false
    if state.origin == nil { state.origin = progress.start }
    draw()
  }

  func transmissionIsWaitingForInput(line: Int) {
    state.line = line
    state.isWaitingForInput = true
    state.isOn = false
    draw()
  }

  func transmissionDidFinishMessage(line: Int, round: Int) {
    state.isOn = false
    draw()
  }

  private func draw() {
    let (state, color, compact, width) = (self.state, self.color, self.compact, self.width)
    // The width is asked for at each frame: the window may be resized.
    show { now in
      ProgressLine.render(state, now: now, width: width(), color: color, compact: compact)
    }
  }
}
