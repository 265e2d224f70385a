import Glibc
import MorseCore

/// `morsetorch send`: options read, then the pieces of MorseCore wired together.
struct SendCommand {
  private let words: [String]
  private let arguments: ParsedArguments
  private let environment: [String: String]

  /// Reads the options of `send` from `words`.
  init(_ words: [String], environment: [String: String]) throws(UsageError) {
    self.words = words
    arguments = try ParsedArguments(words, specs: Options.send, command: "send")
    self.environment = environment
  }

  /// The timing the options ask for.
  func timing() throws -> MorseTiming {
    let wordsPerMinute = try arguments.integer("wpm")
    let unit = try arguments.integer("unit")
    let farnsworth = try arguments.integer("farnsworth")
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
      guard let percent = Int(text.dropLast()), (1...100).contains(percent) else {
        throw .invalidValue(
          option: "--brightness", value: text, expected: "a percentage 1% to 100%")
      }
      return .percent(percent)
    }
    guard let value = Int(text), value >= 1 else {
      throw .invalidValue(
        option: "--brightness", value: text, expected: "a whole number of at least 1, or P%")
    }
    return .value(value)
  }

  /// Sends, and returns the exit status.
  func run() throws -> Int32 {
    if arguments.has("help") {
      Console.output(HelpText.send)
      return ExitStatus.success
    }
    if arguments.has("dry-run") && arguments.has("preview") {
      throw UsageError.conflictingOptions("--dry-run", "--preview")
    }
    let timing = try timing()
    let brightness = try brightness()
    let policy: UnknownCharacterPolicy = arguments.has("skip-unknown") ? .skip : .reject
    // Everything is checked before any LED is touched.
    let text = try textOperand(arguments.operands, command: "send")
    let message = try text.map { try MorseMessage($0, unknownCharacters: policy) }
    if let message {
      Transmitter.warnings(for: message).forEach { Console.error("warning: \($0)") }
    }
    let conflicts = try conflictPolicy()
    if arguments.has("detach") {
      return try detach(hasText: text != nil, conflicts: conflicts)
    }
    if arguments.has("dry-run") {
      return try dryRun(message, timing: timing, policy: policy)
    }
    // Started by `--detach`: report once the LED is ours, then carry on in the background.
    let readyDescriptor = DetachedSend.adoptIfDetached(environment: environment)
    let scheduler = StepScheduler(clock: SystemStepClock())
    let watcher = try SignalWatcher(
      signals: [SIGINT, SIGTERM, SIGHUP], cancelling: scheduler.cancellation
    ) { _ in scheduler.cancel() }
    defer { watcher.stop() }
    let makeTransmitter = { (torch: any Torch, observer: ((Transmitter.Progress) -> Void)?) in
      Transmitter(
        torch: torch, scheduler: scheduler, timing: timing, unknownCharacters: policy,
        warn: { Console.error("warning: \($0)") }, observer: observer)
    }
    let send = { (transmitter: Transmitter) throws -> TransmissionOutcome in
      if let message {
        try transmitter.send(message)
      } else {
        try transmitter.send(lines: StreamLineSource())
      }
    }
    if arguments.has("preview") {
      let preview = TerminalPreview()
      let result = Result { try send(makeTransmitter(preview) { preview.show($0) }) }
      preview.restore()
      _ = try result.get()
      return stoppedStatus(watcher, while: "preview ended")
    }

    let led = try chooseLED()
    let runtime = try RuntimeDirectory(environment: environment)
    let session = LEDSession(
      led: led, runtime: runtime, brightness: brightness,
      description: describe(message, text: text), note: { Console.error($0) })
    let outcome = try session.run(policy: conflicts, cancellation: scheduler.cancellation) {
      torch, progress in
      if let readyDescriptor { DetachedSend.reportReady(on: readyDescriptor) }
      return try send(makeTransmitter(torch, progress))
    }
    switch outcome {
    case .cancelledOther(let pid, let record):
      let what = record.map { " (\"\($0.text)\")" } ?? ""
      Console.output("cancelled the transmission on LED \(led.name) by pid \(pid)\(what)")
      return ExitStatus.success
    case .cancelledWhileWaiting:
      return stoppedStatus(watcher, while: "waiting for LED \(led.name); nothing was sent")
    case .transmitted:
      return stoppedStatus(watcher)
    }
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
      StandardStreams.write(output, to: .output)
      StandardStreams.write(errors, to: .error)
      Console.output(
        "sending in the background (pid \(pid)); `morsetorch stop` or a rerun cancels it")
      return ExitStatus.success
    case .ended(let status, let output, let errors):
      StandardStreams.write(output, to: .output)
      StandardStreams.write(errors, to: .error)
      return status
    }
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

  private func stoppedStatus(_ watcher: SignalWatcher, while situation: String = "LED restored")
    -> Int32
  {
    guard let signal = watcher.firstSignal else { return ExitStatus.success }
    Console.error("stopped by \(signalName(signal)); \(situation)")
    return ExitStatus.signalled(signal)
  }

  private func chooseLED() throws -> LED {
    let directory = LEDClassDirectory(environment: environment)
    let preferred =
      arguments.values["led"]
      ?? environment["MORSETORCH_LED"].flatMap {
        $0.isEmpty ? nil : $0
      }
    let choice: (led: LED, note: String?)
    do {
      choice = try directory.chooseLED(preferred: preferred)
    } catch {
      // The compiler of Swift 6.3 crashes on `catch where` with a typed throw here.
      let torchError: TorchError = error
      guard torchError.isNoLED, Console.isErrorTerminal else { throw torchError }
      throw HintedError(
        error: torchError,
        hint: "no LED to send on here: name one with --led NAME (see `morsetorch list`), "
          + "or watch the light in this terminal with `morsetorch send --preview TEXT`")
    }
    if let note = choice.note { Console.error(note) }
    return choice.led
  }

  private func dryRun(_ message: MorseMessage?, timing: MorseTiming, policy: UnknownCharacterPolicy)
    throws -> Int32
  {
    let clock = VirtualStepClock()
    let formatter = TimelineFormatter(origin: clock.now())
    var steps = 0
    Console.output(TimelineFormatter.header)
    let transmitter = Transmitter(
      torch: VirtualTorch(), scheduler: StepScheduler(clock: clock), timing: timing,
      unknownCharacters: policy, warn: { Console.error("warning: \($0)") },
      observer: { progress in
        // Lines of standard input follow each other after a word gap that is no step.
        if let gap = formatter.gapLine(before: progress.start) {
          steps += 1
          Console.output(gap)
        }
        steps += 1
        Console.output(formatter.line(for: progress.step, at: progress.start))
      })
    if let message {
      _ = try transmitter.send(message)
    } else {
      _ = try transmitter.send(lines: StreamLineSource())
    }
    Console.output(formatter.summary(end: clock.now(), steps: steps))
    return ExitStatus.success
  }
}

/// An error with a line of advice for the person at the terminal.
struct HintedError: Error {
  /// What went wrong; it decides the exit status.
  let error: any Error
  /// What to try.
  let hint: String
}

/// "SIGTERM" for 15, and so on.
func signalName(_ signal: Int32) -> String {
  switch signal {
  case SIGINT: "SIGINT"
  case SIGTERM: "SIGTERM"
  case SIGHUP: "SIGHUP"
  default: "signal \(signal)"
  }
}

extension TorchError {
  /// Whether the error means there is no LED at all to use.
  var isNoLED: Bool {
    switch self {
    case .classDirectoryMissing, .noLEDs: true
    default: false
    }
  }
}
