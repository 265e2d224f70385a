import GPIODriver
import Instants
import LinuxSystem
import MorseCore
import MorsePlayer
import MorseReceiving
import ReceiveSources
import SerialDriver

/// `morsetorch receive`: Morse from the edges of a GPIO input line (the kernel's timestamps)
/// or from a file of edges, or from a light in a video or through a camera, printed as it is
/// read: one `ReceiveSource` for each, read by the one `ReceiveLoop`.
struct ReceiveCommand {
  private let invocation: Invocation<ReceivePlan>
  private let environment: ProcessEnvironment

  init(_ words: [String], environment: ProcessEnvironment) throws {
    invocation = try Invocation(words, command: "receive")
    self.environment = environment
  }

  func run() throws -> Int32 {
    guard case .run(let plan) = invocation else {
      return Morsetorch.printing(HelpText.receive.text)
    }
    try plan.checkShow(isErrorTerminal: Console.isErrorTerminal, term: environment["TERM"])
    let timeout = plan.timeout
    let cancellation = Cancellation()
    let watcher = try SignalWatcher(
      signals: Signals.terminating, cancelling: cancellation
    ) { _ in cancellation.cancel() }
    // Fired by a signal or at --timeout: ends every wait for a file (input, or a FIFO's reader).
    let stop = OneShotEvent()
    cancellation.onCancel { stop.fire() }
    try Self.at(timeout, unless: cancellation) { stop.fire() }
    let recorder = try plan.edgesOut.map { path throws(EdgeRecorder.Failure) in
      try EdgeRecorder(path: path, stop: stop)
    }
    let trace = try plan.trace.map { path throws(TraceFile.Failure) in try TraceFile(path: path) }
    var characters = 0
    // Nil: stopped (a signal, --timeout) before there was anything to read.
    if let source = try open(plan.source, stop: stop) {
      var settings = plan.settings
      // A regular file (named, or as standard input: `< FILE`) is read a line at a time,
      // whole: the sender's timing learned from all of it before a character is given. A
      // pin, a camera, a FIFO or a pipe is read as it comes, a few characters held back.
      if let path = plan.source.filePath ?? plan.source.standardInput,
        (try? FileSystem.status(path))?.isRegularFile == true
      {
        settings.lookAhead = .wholeLine
      } else {
        settings.lookAhead = .heldBack
      }
      var loop = ReceiveLoop(
        settings: settings, light: plan.source.light, recorder: recorder, trace: trace,
        view: plan.show ? ReceiveView(palette: palette) : nil)
      // `--trace -`: standard output is the picture's; the text read is in it.
      if trace?.isStandardOutput == true { loop.console.write = { _ in } }
      // On the terminal the view is on, the text would land inside it: written at the end.
      if let view = loop.view, Console.isOutputTerminal {
        loop.console.write = view.holding(loop.console.write)
      }
      characters = try loop.run(source)
    }
    guard let signal = watcher.stoppingSignal ?? watcher.firstSignal else {
      return characters == 0 ? ExitStatus.nothingRead : ExitStatus.success
    }
    Console.note("stopped by \(Signals.name(signal))")
    return ExitStatus.signalled(signal)
  }

  /// `--show`'s colours, as the environment says the terminal has them.
  private var palette: ReceiveViewPalette {
    .chosen(
      noColor: environment["NO_COLOR"], term: environment["TERM"],
      colorTerm: environment["COLORTERM"])
  }

  /// The source `source` names, open; nil if `stop` fired before it could be.
  private func open(_ source: ReceivePlan.Source, stop: OneShotEvent) throws
    -> (any ReceiveSource)?
  {
    switch source {
    case .edges(let path):
      return try EdgeFileSource(path: path, stop: stop)
    case .gpio(let line, let isActiveLow, let bias):
      return try GPIOLineSource(
        line, isActiveLow: isActiveLow, bias: bias, chips: environment.gpioChips, stop: stop)
    case .serial(let address, let isActiveLow):
      return try SerialLineSource(
        address, isActiveLow: isActiveLow, ports: environment.serialPorts, stop: stop)
    case .video(let path, _, let paced):
      return try VideoFileSource(
        path: path, stop: stop, paced: paced, environment: environment.variables)
    case .camera(let path, _, let size, let fps):
      return try CameraSource(
        path, size: size, fps: fps, devices: environment.videoDevices, stop: stop)
    }
  }

  /// Runs `action` on a thread of its own once `timeout` has passed, unless `cancellation`
  /// comes first.
  private static func at(
    _ timeout: Duration?, unless cancellation: Cancellation,
    _ action: @escaping @Sendable () -> Void
  ) throws {
    guard let timeout else { return }
    let deadline = MonotonicTime.now() + timeout
    try Threads.start {
      // true: the deadline came before any cancellation.
      if cancellation.event.wait(untilMonotonic: deadline) { action() }
    }
  }

}

extension ReceivePlan.Source {
  /// `--region`, `--active-low`: where the light is and how it marks, for a source of frames.
  var light: LightReceiver.Settings {
    switch self {
    case .edges, .gpio, .serial: LightReceiver.Settings()
    case .video(_, let light, _), .camera(_, let light, _, _): light
    }
  }
}
