import Glibc
import LEDDriver
import LinuxSystem
import MorseCore
import MorsePlayer
import TransmitterControl

/// `morsetorch send`: options read, then the pieces of MorseCore wired together.
struct SendCommand {
  private let words: [String]
  private let arguments: StringArguments
  private let environment: [String: String]

  /// Reads the options of `send` from `words`.
  init(_ words: [String], environment: [String: String]) throws(UsageError) {
    self.words = words
    arguments = try StringArguments(words, specs: Options.send, command: "send")
    self.environment = environment
  }

  /// The timing the options ask for.
  func timing() throws -> MorseTiming {
    let speeds = MorseTiming.wordsPerMinuteRange
    let speed = "a whole number from \(speeds.lowerBound) to \(speeds.upperBound)"
    let units = MorseTiming.unitMillisecondsRange
    let wordsPerMinute = try arguments.integer("wpm", expected: speed)
    let unit = try arguments.integer(
      "unit", expected: "a whole number from \(units.lowerBound) to \(units.upperBound)")
    let farnsworth = try arguments.integer("farnsworth", expected: speed)
    if wordsPerMinute != nil && unit != nil {
      throw UsageError.conflictingOptions("--wpm", "--unit")
    }
    if let unit {
      if farnsworth != nil {
        throw UsageError.requiresOption("--farnsworth", requirement: "--wpm, not --unit")
      }
      return try MorseTiming(unitMilliseconds: unit)
    }
    return try MorseTiming(wordsPerMinute: wordsPerMinute ?? 12, farnsworth: farnsworth)
  }

  /// The brightness `--brightness` asks for: "N" or "P%".
  func brightness() throws(UsageError) -> BrightnessSetting {
    guard let text = arguments.values["brightness"] else { return .maximum }
    if text.hasSuffix("%") {
      guard let percent = OptionWords.wholeNumber(text.dropLast()),
        (1...100).contains(percent)
      else {
        throw .invalidValue(
          option: "--brightness", value: text, expected: "a percentage 1% to 100%")
      }
      return .percent(percent)
    }
    guard let value = OptionWords.wholeNumber(text), value >= 1 else {
      throw .invalidValue(
        option: "--brightness", value: text, expected: "a whole number of at least 1, or P%")
    }
    return .value(value)
  }

  /// Sends, and returns the exit status: validate, claim the LED, transmit, restore, release.
  func run() throws -> Int32 {
    if arguments.has("help") { return Morsetorch.printing(HelpText.send) }
    if arguments.has("dry-run") && arguments.has("preview") {
      throw UsageError.conflictingOptions("--dry-run", "--preview")
    }
    // --echo writes standard output, which these already use (or, detached, leave).
    for other in ["dry-run", "preview", "detach"]
    where arguments.has("echo") && arguments.has(other) {
      throw UsageError.conflictingOptions("--echo", "--\(other)")
    }
    Console.isQuiet = arguments.has("quiet")
    if arguments.has("edges") && !arguments.has("dry-run") {
      throw UsageError.requiresOption("--edges", requirement: "--dry-run")
    }
    // Everything is checked before any LED is touched.
    let timing = try timing()
    let brightness = try brightness()
    let text = try textOperand(arguments.operands, command: "send")
    let message = try text.map { try MorseMessage($0, unknownCharacters: unknownCharacters) }
    if let message { SkippedCharacters.warn(about: message) }
    let conflicts = try conflictPolicy()
    let gpio = try GPIOChoice(arguments)
    _ = try repetition(timing: timing, hasText: text != nil)
    if arguments.has("detach") { return try detach(hasText: text != nil, conflicts: conflicts) }
    if arguments.has("dry-run") { return try dryRun(message, timing: timing) }
    // Started by `--detach`: report once the LED is ours, then carry on in the background.
    let ready = DetachedSend.adoptIfDetached(environment: environment)
    let cancellation = Cancellation()
    let watcher = try SignalWatcher(
      signals: SignalWatcher.stoppingSignals, cancelling: cancellation
    ) { _ in cancellation.cancel() }
    // Kept until exit: a signal after the LED is back finds nothing left to do, rather than
    // ending the process by its default action with another status.
    let outputs = Outputs(
      message: message, text: text, timing: timing, conflicts: conflicts,
      cancellation: cancellation, watcher: watcher)
    if let gpio {
      return try send(on: gpio.devices(environment: environment), outputs, ready: ready)
    }
    guard !arguments.has("preview"), let leds = try chooseLEDs() else {
      return try preview(message, timing: timing, cancellation: cancellation, watcher: watcher)
    }
    let ledOption = arguments.has("led") ? "--led" : LEDVariableError.variable
    try DeviceNames.checkLimit(leds.count, devices: "LEDs", option: ledOption)
    let devices = leds.map { LEDDevice(led: $0, brightness: brightness) }
    // Every one before any is reserved: a refused LED must leave none claimed, no record.
    for device in devices { try device.checkWritable() }
    return try send(on: devices, outputs, ready: ready)
  }

  /// What the main path sends, and how.
  private struct Outputs {
    let message: MorseMessage?
    let text: String?
    let timing: MorseTiming
    let conflicts: ConflictPolicy
    let cancellation: Cancellation
    let watcher: SignalWatcher
  }

  /// The main path: reserve the devices (LEDs or GPIO lines), claim them, transmit, restore,
  /// release.
  private func send<Device: TorchDevice>(
    on devices: [Device], _ outputs: Outputs, ready: consuming FileDescriptor?
  ) throws -> Int32 {
    let (message, text, timing) = (outputs.message, outputs.text, outputs.timing)
    let (conflicts, cancellation, watcher) =
      (outputs.conflicts, outputs.cancellation, outputs.watcher)
    let names = devices.map(\.lockName)
    let runtime = try RuntimeDirectory(environment: environment)
    switch try TransmitterSession.reserve(
      devices, in: runtime, policy: conflicts, cancellation: cancellation)
    {
    case .cancelledOthers(let cancelled, let notes):
      notes.forEach { Console.error($0.message) }
      let lines = cancelled.map(Self.cancelledLine)
      Console.output(lines.joined(separator: "\n") + "; nothing was sent")
      return ExitStatus.cancelledOther
    case .cancelledWhileWaiting(let request):
      return stoppedStatus(
        watcher, request: request,
        while: "waiting for \(DeviceNames.naming(names)); nothing was sent")
    case .reserved(let session):
      announce(session.notes, holding: names, runtime: runtime)
      let shown = describe(message, text: text)
      let repetition = try repetition(timing: timing, hasText: text != nil)
      let claimed = try session.claim(
        text: shown.text, totalSymbols: shown.totalSymbols,
        rounds: repetition.count == 1 ? nil : repetition.count ?? 0)
      if let ready = ready.take() { DetachedSend.reportReady(on: ready, environment: environment) }
      let display = try display(message, timing: timing)
      // The progress line goes before anything else is said, errors included.
      defer { display.finish() }
      // This thread keeps the deadlines: least timer slack, real-time where allowed.
      _ = TimingPriority.raiseForCurrentThread()
      let transmitter = makeTransmitter(
        claimed.torch, timing: timing, cancellation: cancellation,
        observers: claimed.recordKeepers + display.observers)
      let outcome = try claimed.finish(
        Result { try send(message, with: transmitter, timing: timing) })
      display.finish()
      for case let torch as SysfsTorch in claimed.torch.members {
        for setting in torch.skippedSettings {
          Console.error("warning: " + setting.message(device: torch.led.name))
        }
      }
      return stoppedStatus(
        watcher, request: claimed.stopRequest, outcome: outcome,
        while: DeviceNames.restored(names))
    }
  }

  /// Says what the reservation did on the way (a leftover restored: a note; a corrupt record:
  /// a warning), and restores what a killed sender left claimed with a leftover of ours.
  private func announce(_ notes: [ControlNote], holding names: [String], runtime: RuntimeDirectory)
  {
    for note in notes {
      guard case .leftoverRestored(_, _, let companions, _) = note else {
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
      echo: arguments.has("echo"), quiet: arguments.has("quiet"), environment: environment,
      message: message, timing: timing,
      repetition: repetition(timing: timing, hasText: message != nil), preview: preview)
  }

  /// What a rerun says of a transmission it cancelled: where, by whom, what, and who waited.
  private static func cancelledLine<SavedState>(_ cancelled: CancelledTransmission<SavedState>)
    -> String
  {
    let what = cancelled.record.map { " (\"\(TerminalText.escaped($0.text))\")" } ?? ""
    let waiters = cancelled.waiters
    let others =
      waiters.isEmpty
      ? ""
      : " and \(waiters.count) waiting (pid \(waiters.map(String.init).joined(separator: ", ")))"
    let names = cancelled.record?.group ?? [cancelled.device]
    return
      "cancelled the transmission on \(DeviceNames.naming(names)) by pid \(cancelled.pid)\(what)\(others)"
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
    let display = try display(message, timing: timing, preview: preview)
    let transmitter = makeTransmitter(
      preview, timing: timing, cancellation: cancellation,
      observers: [preview] + display.observers)
    let result = Result { try send(message, with: transmitter, timing: timing) }
    preview.restore()
    return stoppedStatus(watcher, outcome: try result.get(), while: "preview ended")
  }

  private var unknownCharacters: UnknownCharacterPolicy {
    arguments.has("skip-unknown") ? .skip : .reject
  }

  /// A transmitter on `torch` at `timing`, warning about skipped characters of streamed lines.
  private func makeTransmitter(
    _ torch: any Torch, timing: MorseTiming, cancellation: Cancellation,
    clock: any StepClock = SystemStepClock(), observers: [any TransmissionObserver]
  ) -> Transmitter {
    Transmitter(
      torch: torch, scheduler: StepScheduler(clock: clock, cancellation: cancellation),
      timing: timing, unknownCharacters: unknownCharacters,
      observers: observers + [SkippedCharacters()])
  }

  /// Sends the message (as many times as asked), or standard input line by line when there
  /// is none.
  private func send(_ message: MorseMessage?, with transmitter: Transmitter, timing: MorseTiming)
    throws -> TransmissionOutcome
  {
    if let message {
      return try transmitter.send(
        message, repetition: repetition(timing: timing, hasText: true))
    }
    return try transmitter.send(lines: StreamLineSource())
  }

  /// `--detach`: the same `send` in a background copy; returns once it holds the LED.
  private func detach(hasText: Bool, conflicts: ConflictPolicy) throws -> Int32 {
    guard hasText else {
      throw UsageError.requiresOption("--detach", requirement: "TEXT (standard input stays here)")
    }
    for other in ["dry-run", "preview"] where arguments.has(other) {
      throw UsageError.conflictingOptions("--detach", "--\(other)")
    }
    if conflicts == .wait {
      throw UsageError.conflictingOptions(
        "--detach", arguments.has("wait") ? "--wait" : "--queue")
    }
    // The same words less `--detach` (only where it is an option: before a `--`).
    let end = words.firstIndex(of: "--") ?? words.endIndex
    let copyWords = ["send"] + words[..<end].filter { $0 != "--detach" } + words[end...]
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

  /// `--repeat N` or `--loop`, a `--pause` apart (a word gap by default); once otherwise.
  /// Only TEXT is repeated: standard input is sent once, as it comes.
  func repetition(timing: MorseTiming, hasText: Bool) throws(UsageError) -> Repetition {
    let counts = "a whole number from 1 to 1000000"
    let count = try arguments.integer("repeat", expected: counts)
    let isLoop = arguments.has("loop")
    if count != nil && isLoop { throw .conflictingOptions("--repeat", "--loop") }
    if let count, !(1...1_000_000).contains(count) {
      throw .invalidValue(
        option: "--repeat", value: arguments.values["repeat"] ?? "", expected: counts)
    }
    let repeating = isLoop ? "--loop" : count != nil ? "--repeat" : nil
    if let repeating, !hasText {
      throw .requiresOption(
        repeating, requirement: "TEXT (standard input is sent once, as it comes)")
    }
    if isLoop && arguments.has("dry-run") {
      throw .conflictingOptions("--loop", "--dry-run (it would never end; use --repeat N)")
    }
    guard let pauseText = arguments.values["pause"] else {
      return Repetition(count: isLoop ? nil : count ?? 1, pause: timing.wordGap)
    }
    guard repeating != nil else {
      throw .requiresOption("--pause", requirement: "--repeat N or --loop")
    }
    guard let pause = DurationText.parse(pauseText) else {
      throw .invalidValue(
        option: "--pause", value: pauseText,
        expected: "a time like 500ms, 2s, 1.5s or 1m (up to 24h)")
    }
    // Shorter, the rounds run together: a receiver reads them as one word (or one character).
    let shortest = Self.shortestPause(timing)
    guard pause >= shortest else {
      throw .invalidValue(
        option: "--pause", value: pauseText,
        expected: "at least a word gap, \(shortest.millisecondsText)ms at this speed, so that "
          + "each round stays a word of its own")
    }
    return Repetition(count: isLoop ? nil : count, pause: pause)
  }

  /// The shortest `--pause`: a word gap at `timing`, rounded up to the microsecond (the
  /// finest `--pause` can be written) so that the time the error names is accepted.
  static func shortestPause(_ timing: MorseTiming) -> Duration {
    let (seconds, attoseconds) = timing.wordGap.components
    let perMicrosecond: Int64 = 1_000_000_000_000
    let microseconds = (attoseconds + perMicrosecond - 1) / perMicrosecond
    return .seconds(seconds) + .microseconds(microseconds)
  }

  /// `--replace` or `--wait`/`--queue`; by default a rerun cancels (toggle).
  func conflictPolicy() throws(UsageError) -> ConflictPolicy {
    let waits = arguments.has("wait") || arguments.has("queue")
    if arguments.has("replace") && waits {
      throw .conflictingOptions("--replace", arguments.has("wait") ? "--wait" : "--queue")
    }
    if arguments.has("replace") { return .replace }
    return waits ? .wait : .toggle
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
      Console.note("stopped by \(signalName(signal)); \(situation)")
      return ExitStatus.signalled(signal)
    }
    guard let request else { return ExitStatus.success }
    Console.note(
      "stopped by pid \(request.processID) (`morsetorch stop` or a rerun); \(situation)")
    return ExitStatus.signalled(SIGTERM)
  }

  /// The LEDs to send on: those `--led` names (each a name or a pattern, see
  /// `LEDClassDirectory.leds(matching:)`), else `MORSETORCH_LED`'s, else one chosen
  /// automatically. Nil when there is no LED at all, nobody named one and someone is watching
  /// the terminal: the light is shown there instead.
  private func chooseLEDs() throws -> [LED]? {
    let directory = LEDClassDirectory(environment: environment)
    let variable = environment[LEDVariableError.variable].flatMap { $0.isEmpty ? nil : $0 }
    let options = arguments.all("led")
    do {
      if let requests = options.isEmpty ? variable.map({ [$0] }) : options {
        return try directory.leds(matching: requests)
      }
      let choice = try directory.chooseLED()
      if let note = choice.note { Console.note(note) }
      return [choice.led]
    } catch {
      // The compiler of Swift 6.3 crashes on `catch where` with a typed throw here.
      let ledError: LEDError = error
      if options.isEmpty, variable != nil, !ledError.isNoLED {
        throw LEDVariableError(error: ledError)
      }
      guard ledError.isNoLED, Console.isErrorTerminal else { throw ledError }
      if options.isEmpty, variable == nil {
        Console.note("no LED here: showing the light in this terminal instead (--preview)")
        return nil
      }
      throw HintedError(
        error: ledError,
        hint: "no LED to send on here: name one with --led NAME (see `morsetorch list`), "
          + "or watch the light in this terminal with `morsetorch send --preview TEXT`")
    }
  }

  /// `--dry-run`: the timeline as a table, or with `--edges` as edges `receive` reads.
  private func dryRun(_ message: MorseMessage?, timing: MorseTiming) throws -> Int32 {
    // Written in blocks, and at each line of input (the observers flush as the next line is
    // asked for), so a stream still shows its timeline line by line.
    Console.bufferOutput()
    let clock = VirtualStepClock()
    if arguments.has("edges") {
      let transmitter = makeTransmitter(
        VirtualTorch(), timing: timing, cancellation: Cancellation(), clock: clock,
        observers: [DryRunEdges(origin: clock.now())])
      _ = try send(message, with: transmitter, timing: timing)
      return ExitStatus.success
    }
    let timeline = DryRunTimeline(origin: clock.now())
    let transmitter = makeTransmitter(
      VirtualTorch(), timing: timing, cancellation: Cancellation(), clock: clock,
      observers: [timeline])
    _ = try send(message, with: transmitter, timing: timing)
    timeline.finish(end: clock.now())
    return ExitStatus.success
  }
}
