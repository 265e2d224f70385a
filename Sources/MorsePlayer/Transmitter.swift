import DeviceContract
import Instants
import LinuxSystem
import MorseCore

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
    /// How many characters (and prosigns) have begun so far, this one included (in this
    /// round, when a message is repeated).
    public let symbolsBegun: Int
    /// Which sending of a repeated message it belongs to (1-based).
    public let round: Int

    /// Progress with these values.
    public init(
      step: MorseStep, start: MonotonicInstant, line: Int, symbolsBegun: Int, round: Int = 1
    ) {
      self.step = step
      self.start = start
      self.line = line
      self.symbolsBegun = symbolsBegun
      self.round = round
    }
  }

  private let torch: any Torch
  private let scheduler: StepScheduler
  private let timing: MorseTiming
  private let unknownCharacters: UnknownCharacterPolicy
  private let observers: [any TransmissionObserver]
  /// When the last message sent to its end ended, on the scheduler's clock.
  public private(set) var lastEnd: MonotonicInstant?
  private var symbolsBegun = 0
  private var round = 1
  private var isNewSymbol = true

  /// A transmitter driving `torch` through `scheduler`, telling `observers` of each message
  /// and step. The torch reports its failures (a device that went away) to the scheduler's
  /// cancellation from now on.
  public init(
    torch: any Torch, scheduler: StepScheduler, timing: MorseTiming,
    unknownCharacters: UnknownCharacterPolicy = .reject,
    observers: [any TransmissionObserver] = []
  ) {
    self.torch = torch
    self.scheduler = scheduler
    self.timing = timing
    self.unknownCharacters = unknownCharacters
    self.observers = observers
    torch.reportFailures(to: scheduler.cancellation)
  }

  /// Sends a message validated beforehand (all of it before the torch was claimed), as many
  /// times as `repetition` says.
  ///
  /// Each round starts `repetition.pause` after the previous one ended, on the schedule
  /// (absolute deadlines), so a beacon that runs for days does not drift; nothing is kept
  /// per round, so its memory stays flat.
  public func send(_ message: MorseMessage, repetition: Repetition = .once) throws
    -> TransmissionOutcome
  {
    guard !message.isEmpty else { return try transmit(message, line: 1) }
    round = 0
    while repetition.count.map({ round < $0 }) ?? true {
      round += 1
      symbolsBegun = 0
      isNewSymbol = true
      let start = round == 1 ? nil : lastEnd.map { $0 + repetition.pause }
      guard try transmit(message, line: 1, startingAt: start) == .completed else {
        return .cancelled
      }
    }
    return .completed
  }

  /// Sends steps made elsewhere (a network keyer's: each character at the speed its request
  /// left, a pause first for a leading space), the first at `start` (now, if that has passed).
  public func send(steps: [MorseStep], startingAt start: MonotonicInstant) throws
    -> TransmissionOutcome
  {
    symbolsBegun = 0
    isNewSymbol = true
    return try run(steps, line: 1, startingAt: max(start, scheduler.clock.now()))
  }

  /// Sends `source` line by line as lines arrive, until it ends or the run is cancelled.
  ///
  /// A piece of a long line is sent like a line of its own, after a word gap (a letter gap
  /// when it goes on with a word the piece before it broke), and positions in errors still
  /// count from the start of its line. Terminal control sequences are dropped (see
  /// `ControlSequenceFilter`: one goes on across the pieces of its line), and observers hear of
  /// each one given up for its length.
  public func send(lines source: some LineSource) throws -> TransmissionOutcome {
    scheduler.cancellation.onCancel { [source] in source.close() }
    var lineNumber = 0
    var column = 1
    var isWordBroken = false
    var filter = ControlSequenceFilter()
    while true {
      observers.forEach { $0.transmissionIsWaitingForInput(line: lineNumber + 1) }
      guard let piece = try source.nextPiece() else { break }
      if !piece.continuesLine {
        lineNumber += 1
        column = 1
        filter.endLine()
      }
      if scheduler.isCancelled { break }
      // Colours and cursor moves of log lines (systemd's `ESC[0;1;39m`) are no text; a
      // sequence goes on from one piece of a line to the next.
      let (text, overruns) = filter.filter(try decode(piece, line: lineNumber, column: column))
      for kind in overruns {
        observers.forEach { $0.transmission(droppedOverlong: kind, line: lineNumber) }
      }
      let message = try MorseMessage(
        text, firstLine: lineNumber, firstColumn: column, unknownCharacters: unknownCharacters)
      column += text.count
      observers.forEach { $0.transmission(willSendLine: message, number: lineNumber) }
      let gap = isWordBroken && piece.continuesLine ? timing.letterGap : timing.wordGap
      isWordBroken = piece.breaksWord
      guard try transmit(message, line: lineNumber, after: gap) == .completed else {
        return .cancelled
      }
    }
    return scheduler.isCancelled ? try outcome(of: scheduler.stoppedOutcome()) : .completed
  }

  /// The text of `piece`: without a byte-order mark at the start of input; with `.skip`,
  /// bytes that are not UTF-8 are skipped (and reported) like any other unknown character.
  private func decode(_ piece: LinePiece, line: Int, column: Int) throws -> String {
    let isStart = line == 1 && !piece.continuesLine
    let bytes = isStart ? UTF8Lines.droppingByteOrderMark(piece.bytes) : piece.bytes[...]
    guard unknownCharacters != .skip else { return UTF8Lines.repairing(bytes) }
    return try UTF8Lines.decode(bytes, line: line, firstColumn: column)
  }

  /// Sends one message at `fixedStart`, or (for a line of input) `gap` after the last one
  /// ended, or now if it came later than that.
  private func transmit(
    _ message: MorseMessage, line: Int, startingAt fixedStart: MonotonicInstant? = nil,
    after gap: Duration? = nil
  ) throws -> TransmissionOutcome {
    guard !message.isEmpty else {
      return scheduler.isCancelled ? try outcome(of: scheduler.stoppedOutcome()) : .completed
    }
    let now = scheduler.clock.now()
    let start = fixedStart ?? lastEnd.map { max($0 + (gap ?? timing.wordGap), now) } ?? now
    return try run(MorseSteps(message, timing: timing), line: line, startingAt: start)
  }

  /// Runs `steps` from `start`, telling the observers.
  private func run(_ steps: some Sequence<MorseStep>, line: Int, startingAt start: MonotonicInstant)
    throws -> TransmissionOutcome
  {
    let observe: ((MorseStep, MonotonicInstant) -> Void)? =
      observers.isEmpty ? nil : { [self] step, instant in began(step, at: instant, line: line) }
    let result = try outcome(
      of: scheduler.run(
        steps, on: torch, startingAt: start,
        lateTolerance: timing.lateTolerance, observer: observe))
    if result == .completed {
      observers.forEach { $0.transmissionDidFinishMessage(line: line, round: max(1, round)) }
    }
    return result
  }

  private func began(_ step: MorseStep, at instant: MonotonicInstant, line: Int) {
    switch step.kind {
    case .letterGap, .wordGap: isNewSymbol = true
    case .dot where isNewSymbol, .dash where isNewSymbol:
      symbolsBegun += 1
      isNewSymbol = false
    default: break
    }
    let progress = Progress(
      step: step, start: instant, line: line, symbolsBegun: symbolsBegun, round: max(1, round))
    observers.forEach { $0.transmission(didBegin: progress) }
  }

  private func outcome(of run: StepRunOutcome) -> TransmissionOutcome {
    switch run {
    case .completed(let end):
      lastEnd = end
      return .completed
    case .cancelled:
      return .cancelled
    }
  }
}
