/// How a transmission ended.
public enum TransmissionOutcome: Sendable, Hashable {
  /// Everything was sent.
  case completed
  /// It was cancelled (a signal, a rerun); the light is off.
  case cancelled
}

/// Sends text on a torch: validates it, expands it into steps and runs them on a scheduler.
///
/// Streamed input is sent line by line: each line is validated before it starts, and the
/// next line begins a word gap after the previous one ended — or at once, if it arrived
/// later than that. Within a line every step is at an absolute deadline.
public final class Transmitter {
  /// What the transmitter is doing, for observers (`--preview`, `status`).
  public struct Progress: Sendable, Hashable {
    /// The step that just began.
    public let step: MorseStep
    /// When it began, on the scheduler's clock.
    public let start: MonotonicInstant
    /// The line of input it belongs to (1-based).
    public let line: Int
    /// How many characters (and prosigns) have begun so far, this one included.
    public let symbolsBegun: Int
  }

  private let torch: any Torch
  private let scheduler: StepScheduler
  private let timing: MorseTiming
  private let unknownCharacters: UnknownCharacterPolicy
  private let warn: (String) -> Void
  private let observer: ((Progress) -> Void)?
  private var lastEnd: MonotonicInstant?
  private var symbolsBegun = 0

  /// A transmitter driving `torch` through `scheduler`.
  ///
  /// `warn` receives one line per skipped character (with `.skip`); `observer` hears of every
  /// step as it begins, on the transmitting thread, and must return quickly.
  public init(
    torch: any Torch, scheduler: StepScheduler, timing: MorseTiming,
    unknownCharacters: UnknownCharacterPolicy = .reject,
    warn: @escaping (String) -> Void = { _ in },
    observer: ((Progress) -> Void)? = nil
  ) {
    self.torch = torch
    self.scheduler = scheduler
    self.timing = timing
    self.unknownCharacters = unknownCharacters
    self.warn = warn
    self.observer = observer
  }

  /// Sends a message validated beforehand (all of it before the torch was claimed).
  public func send(_ message: MorseMessage) throws -> TransmissionOutcome {
    try transmit(message, line: 1)
  }

  /// One warning line per character `message` skipped (at most 20, then a count).
  public static func warnings(for message: MorseMessage) -> [String] {
    var lines = message.skipped.map { "skipped \($0)" }
    if message.skippedCount > message.skipped.count {
      lines.append("skipped \(message.skippedCount - message.skipped.count) more characters")
    }
    return lines
  }

  /// Sends `source` line by line as lines arrive, until it ends or the run is cancelled.
  public func send(lines source: some LineSource) throws -> TransmissionOutcome {
    scheduler.cancellation.onCancel { [source] in source.close() }
    var lineNumber = 0
    while let bytes = try source.nextLine() {
      lineNumber += 1
      if scheduler.isCancelled { return .cancelled }
      let text = try UTF8Lines.decode(bytes, line: lineNumber)
      let message = try validate(text, firstLine: lineNumber)
      guard try transmit(message, line: lineNumber) == .completed else { return .cancelled }
    }
    return scheduler.isCancelled ? .cancelled : .completed
  }

  private func validate(_ text: String, firstLine: Int) throws -> MorseMessage {
    let message = try MorseMessage(text, firstLine: firstLine, unknownCharacters: unknownCharacters)
    Self.warnings(for: message).forEach(warn)
    return message
  }

  private func transmit(_ message: MorseMessage, line: Int) throws -> TransmissionOutcome {
    guard !message.isEmpty else { return scheduler.isCancelled ? .cancelled : .completed }
    let now = scheduler.clock.now()
    let start = lastEnd.map { max($0 + timing.wordGap, now) } ?? now
    var isNewSymbol = true
    let observe: ((MorseStep, MonotonicInstant) -> Void)? = observer.map { observer in
      { [self] step, instant in
        switch step.kind {
        case .letterGap, .wordGap: isNewSymbol = true
        case .dot where isNewSymbol, .dash where isNewSymbol:
          symbolsBegun += 1
          isNewSymbol = false
        default: break
        }
        observer(Progress(step: step, start: instant, line: line, symbolsBegun: symbolsBegun))
      }
    }
    let outcome = try scheduler.run(
      MorseSteps(message, timing: timing), on: torch, startingAt: start, observer: observe)
    switch outcome {
    case .completed(let end):
      lastEnd = end
      return .completed
    case .cancelled:
      return .cancelled
    }
  }
}
