import LinuxSystem
import MorseCore
import MorsePlayer

/// What `send` shows while it sends: the progress line on a terminal, and `--echo` on standard
/// output. Neither ever runs on the timing path: each hands its text to a writer thread.
struct SendDisplay {
  /// The observers to give the transmitter.
  let observers: [any TransmissionObserver]
  private let finishers: [() -> Void]

  /// What a transmission of `message` (nil: standard input) at `timing`, `repetition` times,
  /// shows: progress when standard error is a terminal, `TERM` is not `dumb`, `--quiet` was
  /// not given, no `--echo` goes to the terminal and the text is not typed at it (colour
  /// unless `NO_COLOR`); `--echo` when asked. `preview`, when the light is shown in the
  /// terminal, takes the progress on its own line instead.
  static func make(
    echo: Bool, quiet: Bool, environment: ProcessEnvironment, message: MorseMessage?,
    timing: MorseTiming, repetition: Repetition, preview: TerminalPreview? = nil
  ) throws(Errno) -> SendDisplay {
    var observers: [any TransmissionObserver] = []
    var finishers: [() -> Void] = []
    let isDumb = environment["TERM"] == "dumb"
    let color = (environment["NO_COLOR"] ?? "").isEmpty && !isDumb
    // Worked out only for a progress line (it walks the whole message's timing).
    var state: ProgressState {
      initialState(message: message, timing: timing, repetition: repetition)
    }
    if let preview {
      // After the light (8 columns) and the character (a dozen): the rest of the line.
      let width: @Sendable () -> Int = { (StandardStreams.columns(of: .output) ?? 80) - 24 }
      observers.append(
        ProgressDisplay(
          state: state, color: false, compact: true, width: width, show: preview.showStatus))
    } else if !quiet, !isDumb, Console.isErrorTerminal, !(echo && Console.isOutputTerminal),
      !(message == nil && Console.isInputTerminal)
    {
      // (With --echo at the terminal the characters are the progress: a progress line
      // redrawn in place would wipe them. Nor while the text is typed at the terminal: the
      // line would be drawn where the user types, over what they typed.)
      observers.append(ProgressDisplay(state: state, color: color))
      finishers.append { Console.clearFrame() }
    }
    if echo {
      let writer = try StreamWriter(
        streamName: "standard output", capacity: 65_536, sink: { Console.write($0) })
      let echo = EchoObserver(write: writer.write)
      observers.append(echo)
      finishers.append {
        echo.endLine()
        writer.flush(timeout: .seconds(2))
      }
    }
    return SendDisplay(observers: observers, finishers: finishers)
  }

  /// Takes the progress line away and lets the echo out: before anything else is said.
  func finish() {
    finishers.forEach { $0() }
  }

  /// What is known before the first step: characters, rounds, and the whole duration.
  static func initialState(message: MorseMessage?, timing: MorseTiming, repetition: Repetition)
    -> ProgressState
  {
    var state = ProgressState()
    state.rounds = repetition.count ?? 0
    guard let message else { return state }
    state.totalSymbols = message.reduce(0) { count, token in
      if case .symbol = token { return count + 1 }
      return count
    }
    if let count = repetition.count {
      let once = MorseSteps(message, timing: timing).reduce(Duration.zero) { $0 + $1.duration }
      state.total = once * count + repetition.pause * (count - 1)
    }
    return state
  }
}
