import Foundation
import MorseCore

/// `morsetorch send`: options read, then the pieces of MorseCore wired together.
struct SendCommand {
  private let arguments: ParsedArguments
  private let environment: [String: String]

  /// Reads the options of `send` from `words`.
  init(_ words: [String], environment: [String: String]) throws(UsageError) {
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
        throw .invalidValue(option: "--brightness", value: text, expected: "a percentage 1% to 100%")
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
    let message = try textOperand(arguments.operands, command: "send").map { text in
      try MorseMessage(text, unknownCharacters: policy)
    }
    if let message {
      Transmitter.warnings(for: message).forEach { Console.error("warning: \($0)") }
    }
    if arguments.has("dry-run") {
      return try dryRun(message, timing: timing, policy: policy)
    }
    let torch: any Torch
    if arguments.has("preview") {
      torch = TerminalPreview()
    } else {
      torch = try claimLED(brightness: brightness)
    }
    return try transmit(message, on: torch, timing: timing, policy: policy)
  }

  private func claimLED(brightness: BrightnessSetting) throws -> SysfsTorch {
    let directory = LEDClassDirectory(environment: environment)
    let preferred = arguments.values["led"] ?? environment["MORSETORCH_LED"].flatMap {
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
    return try SysfsTorch(led: choice.led, brightness: brightness)
  }

  private func transmit(
    _ message: MorseMessage?, on torch: any Torch, timing: MorseTiming,
    policy: UnknownCharacterPolicy
  ) throws -> Int32 {
    let scheduler = StepScheduler(clock: SystemStepClock())
    let stopSignal = SignalBox()
    let watcher: SignalWatcher
    do {
      watcher = try SignalWatcher(signals: [SIGINT, SIGTERM, SIGHUP]) { signal in
        stopSignal.store(signal)
        scheduler.cancel()
      }
    } catch {
      try? torch.restore()
      throw error
    }
    defer { watcher.stop() }
    let preview = torch as? TerminalPreview
    let transmitter = Transmitter(
      torch: torch, scheduler: scheduler, timing: timing, unknownCharacters: policy,
      warn: { Console.error("warning: \($0)") },
      observer: preview.map { preview in { preview.show($0) } })
    let result = Result {
      if let message { try transmitter.send(message) } else {
        try transmitter.send(lines: StreamLineSource())
      }
    }
    let restoreResult = Result { try torch.restore() }
    if case .failure(let error) = result {
      if case .failure(let restoreError) = restoreResult {
        Console.error("also, restoring the LED failed: \(restoreError)")
      }
      throw error
    }
    try restoreResult.get()
    if let signal = stopSignal.value {
      Console.error("stopped by \(signalName(signal)); LED restored")
      return ExitStatus.signalled(signal)
    }
    return ExitStatus.success
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

/// The signal that stopped the transmission, set from the signal watcher's thread.
final class SignalBox: @unchecked Sendable {
  private let lock = Lock()
  private var signal: Int32?

  /// Records `signal`, keeping the first one.
  func store(_ signal: Int32) {
    lock.withLock { if self.signal == nil { self.signal = signal } }
  }

  /// The first signal received, if any.
  var value: Int32? { lock.withLock { signal } }
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
