import DeviceContract
import Instants
import LEDDriver
import LinuxSystem
import MorseCore
import MorsePlayer
import TransmitterControl

/// `morsetorch send`: options read, then the pieces of MorseCore wired together.
struct SendCommand {
  private let words: [String]
  private let plan: SendPlan
  private let environment: ProcessEnvironment

  /// Reads the options of `send` from `words` and sends as they ask, or shows the help.
  static func run(_ words: [String], environment: ProcessEnvironment) throws -> Int32 {
    guard case .run(let plan) = try Invocation<SendPlan>(words, command: "send") else {
      return Morsetorch.printing(HelpText.send.text)
    }
    return try SendCommand(words: words, plan: plan, environment: environment).run()
  }

  /// The variable the beacon's unit sets to its own name (`%n`).
  static let serviceVariable = "MORSETORCH_SERVICE"

  /// Sends, and returns the exit status: claim the LED, transmit, restore, release.
  private func run() throws -> Int32 {
    Console.isQuiet = plan.isQuiet
    if let message = plan.message { SkippedCharacters.warn(about: message) }
    if plan.message == nil, Console.isInputTerminal {
      Console.note(
        "type the text to send, a line at a time (each is sent when you press Enter); "
          + "Ctrl-D ends the input, Ctrl-C stops at once")
    }
    switch plan.destination {
    case .detached:
      // Detached, the service's main process would exit at once and systemd would take the
      // beacon for ended, leaving the LED claimed by a process it no longer stops.
      if let service = environment[Self.serviceVariable] {
        throw UsageError.detachUnderService(service)
      }
      return try detach()
    case .dryRun(let output):
      return try dryRun(plan.message, timing: plan.timing, output: output, tone: plan.tone)
    case .devices, .preview: return try transmit()
    }
  }

  /// The light on the GPIO lines, the LEDs, or this terminal, with signals watched.
  private func transmit() throws -> Int32 {
    let (message, timing) = (plan.message, plan.timing)
    // Started by `--detach`: report once the LED is ours, then carry on in the background.
    let ready = DetachedSend.adoptIfDetached(environment: environment)
    let cancellation = Cancellation()
    let jobControl = JobControl(cancellation: cancellation)
    let watcher = try SignalWatcher(
      signals: Signals.terminating, passing: JobControl.signals, cancelling: cancellation
    ) { signal in
      if !jobControl.handle(signal) { cancellation.cancel() }
    }
    // Kept until exit: a signal after the LED is back finds nothing left to do, rather than
    // ending the process by its default action with another status.
    let stops = Stops(cancellation: cancellation, watcher: watcher, jobControl: jobControl)
    switch plan.destination {
    case .devices(let choice):
      guard let devices = try choice.devices(environment: environment) else { break }
      return try send(on: devices, choice, stops, ready: ready)
    case .preview, .detached, .dryRun: break
    }
    return try preview(message, timing: timing, cancellation: cancellation, watcher: watcher)
  }

  /// What stops the main path: the cancellation, and the signals that fire it.
  private struct Stops {
    let cancellation: Cancellation
    let watcher: SignalWatcher
    /// Ctrl-Z: the devices put back while the process is stopped.
    let jobControl: JobControl
  }

  /// The main path: reserve the devices (LEDs or GPIO lines), claim them, transmit, restore,
  /// release.
  private func send(
    on devices: [any TorchDevice], _ choice: any SendChoice, _ stops: Stops,
    ready: consuming FileDescriptor?
  ) throws -> Int32 {
    let (message, text, timing) = (plan.message, plan.text, plan.timing)
    let (conflicts, cancellation, watcher) = (plan.conflicts, stops.cancellation, stops.watcher)
    let names = devices.map(\.id)
    let runtime = try RuntimeDirectory(environment: environment.variables)
    if let unshared = runtime.unshared { Console.error(unshared.message) }
    switch try TransmitterSession.reserve(
      devices, in: runtime, policy: conflicts, cancellation: cancellation,
      whenWaiting: { Console.note(Self.waitingNote(for: $0, in: runtime)) })
    {
    case .cancelledOthers(let cancelled, let notes):
      notes.forEach { Console.error($0.message) }
      let lines = cancelled.map(Self.cancelledLine)
      Console.output(lines.joined(separator: "\n") + "; nothing was sent")
      // A rerun is an off switch; one with other text most likely meant to send it.
      let shown = describe(message, text: text).text
      for unit in Set(cancelled.compactMap(\.unit)).sorted() {
        Console.note(
          "\(unit) stays stopped until it is started again: sudo systemctl start '\(unit)'")
      }
      if cancelled.contains(where: { $0.record.map { $0.text != shown } ?? true }) {
        Console.note(
          "to send this instead, run it again with --replace; to send it after the other "
            + "transmission ends, with --wait")
      }
      return ExitStatus.cancelledOther
    case .cancelledWhileWaiting(let request):
      return stoppedStatus(
        watcher, request: request,
        while: "waiting for \(DeviceNames.naming(names)); nothing was sent")
    case .reserved(let session):
      announce(session.notes, holding: names, runtime: runtime)
      let shown = describe(message, text: text)
      let repetition = plan.repetition
      let claimed = try session.claim(
        text: shown.text, totalSymbols: shown.totalSymbols,
        rounds: repetition.count == 1 ? nil : repetition.count ?? 0)
      stops.jobControl.manage(claimed.torch)
      defer { stops.jobControl.release() }
      if let ready = ready.take() { DetachedSend.reportReady(on: ready, environment: environment) }
      choice.claimWarnings(claimed.torch).forEach(Console.error)
      let display = try display(message, timing: timing)
      // `--echo` that nobody reads any more (`| head`, a full disk) ends the transmission, as
      // it ends the reading of standard input: a `--loop` would go on for ever.
      if plan.echoes { Console.whenOutputFails { cancellation.fail($0) } }
      // The progress line goes before anything else is said, errors included.
      defer { display.finish() }
      // This thread keeps the deadlines: least timer slack, real-time where allowed.
      TimingPriority.raiseForCurrentThread()
      let transmitter = makeTransmitter(
        claimed.torch, timing: timing, cancellation: cancellation,
        observers: claimed.recordKeepers + display.observers)
      let outcome = try claimed.finish(
        Result { try send(message, with: transmitter, timing: timing) })
      display.finish()
      for (device, setting) in claimed.torch.settingsLeftAlone {
        Console.error("warning: " + setting.message(device: device))
      }
      return stoppedStatus(
        watcher, request: claimed.stopRequest, outcome: outcome,
        while: DeviceNames.restored(names))
    }
  }

  /// Says what the reservation did on the way (a leftover restored: a note; a corrupt record:
  /// a warning), and restores what a killed sender left claimed with a leftover of ours.
  private func announce(
    _ notes: [ControlNote], holding names: [DeviceID], runtime: RuntimeDirectory
  ) {
    for note in notes {
      guard case .leftoverRestored(_, _, let companions, _, _) = note else {
        Console.error(note.message)
        continue
      }
      Console.note(note.message)
      let notOurs = companions.filter { !names.contains($0) }
      ControlCommand.recoverCompanions(notOurs, runtime: runtime, environment: environment)
    }
  }

  /// The progress line and `--echo`, for `message` (nil: standard input).
  private func display(
    _ message: MorseMessage?, timing: MorseTiming, preview: TerminalPreview? = nil
  ) throws -> SendDisplay {
    try SendDisplay.make(
      echo: plan.echoes, quiet: plan.isQuiet, environment: environment,
      message: message, timing: timing, repetition: plan.repetition, preview: preview)
  }

  /// `--wait` finding the device busy: who has it, and (at a terminal) how to give up.
  private static func waitingNote(for device: DeviceID, in runtime: RuntimeDirectory) -> String {
    var holder = ""
    if case .record(let found) = Transmissions.record(of: device, in: runtime) {
      holder = ": pid \(found.pid) is sending \"\(TerminalText.escaped(found.text))\""
    }
    let giveUp = Console.isErrorTerminal ? "; Ctrl-C gives up" : ""
    return "waiting for \(DeviceNames.naming([device]))\(holder)\(giveUp)"
  }

  /// What a rerun says of a transmission it cancelled: where, by whom, what, and who waited.
  private static func cancelledLine(_ cancelled: CancelledTransmission)
    -> String
  {
    let what = cancelled.record.map { " (\"\(TerminalText.escaped($0.text))\")" } ?? ""
    let waiters = cancelled.waiters
    let others =
      waiters.isEmpty
      ? ""
      : " and \(waiters.count) waiting (pid \(waiters.map(String.init).joined(separator: ", ")))"
    let names = cancelled.record?.group ?? [cancelled.device]
    let unit = cancelled.unit.map { " of the systemd service \($0)" } ?? ""
    return
      "cancelled the transmission on \(DeviceNames.naming(names)) by pid \(cancelled.pid)\(unit)\(what)\(others)"
  }

  /// `--preview`: the light in this terminal, through the same transmitter as an LED; plain
  /// lines when standard output is no terminal or `TERM` is `dumb`.
  private func preview(
    _ message: MorseMessage?, timing: MorseTiming, cancellation: Cancellation,
    watcher: SignalWatcher
  ) throws -> Int32 {
    let isPlain = !Console.isOutputTerminal || environment["TERM"] == "dumb"
    // What was said before (no LED here, skipped characters) comes before the light.
    Console.flushErrors()
    let preview = try TerminalPreview(isPlain: isPlain)
    Console.whenOutputFails { cancellation.fail($0) }
    let display = try display(message, timing: timing, preview: preview)
    let transmitter = makeTransmitter(
      preview, timing: timing, cancellation: cancellation,
      observers: [preview] + display.observers)
    let result = Result { try send(message, with: transmitter, timing: timing) }
    preview.restore()
    return stoppedStatus(watcher, outcome: try result.get(), while: "preview ended")
  }

  /// A transmitter on `torch` at `timing`, warning about skipped characters of streamed lines.
  private func makeTransmitter(
    _ torch: any Torch, timing: MorseTiming, cancellation: Cancellation,
    clock: any StepClock = SystemStepClock(), observers: [any TransmissionObserver]
  ) -> Transmitter {
    Transmitter(
      torch: torch, scheduler: StepScheduler(clock: clock, cancellation: cancellation),
      timing: timing, unknownCharacters: plan.unknownCharacters,
      observers: observers + [SkippedCharacters()])
  }

  /// Sends the message (as many times as asked), or standard input line by line when there
  /// is none.
  private func send(_ message: MorseMessage?, with transmitter: Transmitter, timing: MorseTiming)
    throws -> TransmissionOutcome
  {
    if let message {
      return try transmitter.send(message, repetition: plan.repetition)
    }
    return try transmitter.send(lines: StreamLineSource())
  }

  /// `--detach`: the same `send` in a background copy; returns once it holds the LED.
  private func detach() throws -> Int32 {
    // The same words less `--detach` (only where it is an option: before a `--`).
    let end = words.firstIndex(of: "--") ?? words.endIndex
    let detach = SendOption.detach.flag
    let copyWords = ["send"] + words[..<end].filter { $0 != detach } + words[end...]
    switch try DetachedSend.start(arguments: copyWords, environment: environment) {
    case .sending(let pid, let output, let errors):
      Console.write(output)
      Console.writeError(errors)
      Console.output(
        "sending in the background (pid \(pid)); `morsetorch stop` or a rerun cancels it")
      return ExitStatus.success
    case .ended(let status, let output, let errors):
      Console.write(output)
      Console.writeError(errors)
      return status
    }
  }

  /// What `status` shows: the text and its number of characters, or standard input.
  private func describe(_ message: MorseMessage?, text: String?) -> (
    text: String, totalSymbols: Int?
  ) {
    guard let message, let text else { return ("(standard input)", nil) }
    let symbols = message.reduce(0) { count, token in
      if case .symbol = token { return count + 1 }
      return count
    }
    return (text, symbols)
  }

  /// Success, unless it was stopped: then a line naming what stopped it — the signal or the
  /// stop request that came first, not a later one of a storm — and 128 + the signal (143, as
  /// for SIGTERM, for a request). A transmission that completed is a success, whatever came
  /// after.
  private func stoppedStatus(
    _ watcher: SignalWatcher, request: StopRequest? = nil, outcome: TransmissionOutcome? = nil,
    while situation: String = "LED restored"
  ) -> Int32 {
    if outcome == .completed { return ExitStatus.success }
    if let signal = watcher.stoppingSignal ?? (request == nil ? watcher.firstSignal : nil) {
      Console.note("stopped by \(Signals.name(signal)); \(situation)")
      return ExitStatus.signalled(signal)
    }
    guard let request else { return ExitStatus.success }
    Console.note(
      "stopped by pid \(request.processID) (`morsetorch stop` or a rerun); \(situation)")
    return ExitStatus.signalled(Signals.terminate)
  }

  /// `--dry-run`: the timeline as a table, with `--edges` as edges `receive` reads, or with
  /// `--wav` as sound.
  private func dryRun(
    _ message: MorseMessage?, timing: MorseTiming, output: DryRunOutput, tone: Int
  ) throws -> Int32 {
    // Written in blocks, and at each line of input (the observers flush as the next line is
    // asked for), so a stream still shows its timeline line by line.
    Console.bufferOutput()
    let clock = VirtualStepClock()
    let cancellation = Cancellation()
    let observer: any TransmissionObserver
    switch output {
    case .timeline: observer = DryRunTimeline(origin: clock.now(), timing: timing)
    case .edges: observer = DryRunEdges(origin: clock.now())
    case .wav(let path):
      let file = try OutputFile(path: path, option: SendOption.wav.flag)
      // TEXT's end, from a first run that makes nothing (the header's sizes, for a pipe).
      var end: MonotonicInstant?
      if message != nil {
        let first = VirtualStepClock(start: clock.now())
        _ = try send(
          message,
          with: makeTransmitter(
            VirtualTorch(), timing: timing, cancellation: Cancellation(), clock: first,
            observers: []), timing: timing)
        end = first.now()
      }
      observer = try DryRunSound(
        file: file, tone: tone, timing: timing, origin: clock.now(), end: end,
        cancellation: cancellation)
    }
    let transmitter = makeTransmitter(
      VirtualTorch(), timing: timing, cancellation: cancellation, clock: clock,
      observers: [observer])
    _ = try send(message, with: transmitter, timing: timing)
    (observer as? DryRunTimeline)?.finish(end: clock.now())
    try (observer as? DryRunSound)?.finish(end: clock.now())
    return ExitStatus.success
  }
}
