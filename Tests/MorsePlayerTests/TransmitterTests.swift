import Instants
import LinuxSystem
import MorseCore
import MorseTestSupport
import Testing

@testable import MorsePlayer

@Suite struct TransmitterTests {
  private let timing = MorseTiming(unit: .milliseconds(100))

  @Test func linesFollowEachOtherAfterAWordGap() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let transmitter = Transmitter(
      torch: torch, scheduler: StepScheduler(clock: clock, cancellation: Cancellation()),
      timing: timing)
    let outcome = try transmitter.send(lines: FixedLineSource(["E", "", "T"]))
    #expect(outcome == .completed)
    // E at 0-100, then a word gap of 700 ms, T at 800-1100.
    #expect(torch.events == timeline([0, 100, 800, 1100]))
  }

  @Test func aLineThatArrivesLateStartsWhenItArrives() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let transmitter = Transmitter(
      torch: torch, scheduler: StepScheduler(clock: clock, cancellation: Cancellation()),
      timing: timing)
    let source = SlowLineSource(clock: clock, lines: [("E", .zero), ("E", .seconds(5))])
    _ = try transmitter.send(lines: source)
    // The second line came 5 s after the first ended: no catching up, it starts then.
    #expect(torch.events == timeline([0, 100, 5100, 5200]))
  }

  @Test func aBadLineFailsBeforeItStartsAfterEarlierLinesWereSent() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let transmitter = Transmitter(
      torch: torch, scheduler: StepScheduler(clock: clock, cancellation: Cancellation()),
      timing: timing)
    // Caught by hand: `#expect(throws:)` returns the error only from Swift 6.1 on, and the
    // arm64 build's compiler is 6.0.3.
    var error: MorseError?
    do {
      _ = try transmitter.send(lines: FixedLineSource(["E", "TE€"]))
    } catch let thrown as MorseError {
      error = thrown
    }
    guard case .unsendable(let character) = error else {
      Issue.record("unexpected error \(String(describing: error))")
      return
    }
    #expect(character.line == 2)
    #expect(character.column == 3)
    #expect(torch.events == timeline([0, 100]))
  }

  @Test func atAOneMillisecondUnitAHiccupUnderTwoMillisecondsKeepsTheDotAndIsNotShifted() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let transmitter = Transmitter(
      torch: torch, scheduler: StepScheduler(clock: clock, cancellation: Cancellation()),
      timing: MorseTiming(unit: .milliseconds(1)))
    // "EE": on 0-1, off to 4, on 4-5. The machine is busy from 1.5 to 5.5 ms: the second
    // dot starts 1.5 ms late, inside the 2 ms tolerance, so the rest is not moved, but the dot
    // still lasts three quarters of a unit (before: it ended at its deadline, 5, at once: a
    // dot of no length, which a receiver never sees).
    clock.schedule(at: MonotonicInstant(sinceOrigin: .microseconds(1500))) {
      clock.advance(by: .milliseconds(4))
    }
    _ = try transmitter.send(lines: FixedLineSource(["EE"]))
    #expect(torch.events == timeline([0, 1, 5.5, 6.25]))
  }

  @Test func invalidUTF8InALineIsAnError() throws {
    let clock = ManualStepClock()
    let transmitter = Transmitter(
      torch: RecordingTorch(clock: clock),
      scheduler: StepScheduler(clock: clock, cancellation: Cancellation()), timing: timing)
    #expect(throws: MorseError.invalidUTF8(line: 1, column: 2, byte: 0xFF)) {
      try transmitter.send(lines: FixedLineSource(bytes: [[0x45, 0xFF]]))
    }
  }

  @Test func skippedCharactersAreWarnedAboutAndNotSent() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let observer = RecordingObserver()
    let transmitter = Transmitter(
      torch: torch, scheduler: StepScheduler(clock: clock, cancellation: Cancellation()),
      timing: timing, unknownCharacters: .skip, observers: [observer])
    _ = try transmitter.send(lines: FixedLineSource(["€E"]))
    #expect(torch.events == timeline([0, 100]))
    #expect(observer.lines.map(\.number) == [1])
    #expect(observer.lines.first?.message.skipped.first?.character == "€")
  }

  @Test func cancelWhileWaitingForALineReturnsCancelled() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let scheduler = StepScheduler(clock: clock, cancellation: Cancellation())
    let transmitter = Transmitter(torch: torch, scheduler: scheduler, timing: timing)
    let source = SlowLineSource(clock: clock, lines: [("E", .zero)], cancelAtEnd: scheduler)
    #expect(try transmitter.send(lines: source) == .cancelled)
    #expect(torch.events == timeline([0, 100]))
  }

  @Test func observersHearWhenTheTransmitterWaitsForALine() throws {
    let clock = ManualStepClock()
    let observer = RecordingObserver()
    let transmitter = Transmitter(
      torch: RecordingTorch(clock: clock),
      scheduler: StepScheduler(clock: clock, cancellation: Cancellation()), timing: timing,
      observers: [observer])
    _ = try transmitter.send(lines: FixedLineSource(["E", "T"]))
    // Before each line, and once more before the end of input.
    #expect(observer.waitedForLines == [1, 2, 3])
    // A message sent whole never waits.
    let whole = RecordingObserver()
    _ = try Transmitter(
      torch: RecordingTorch(clock: clock),
      scheduler: StepScheduler(clock: clock, cancellation: Cancellation()), timing: timing,
      observers: [whole]
    ).send(try MorseMessage("E"))
    #expect(whole.waitedForLines.isEmpty)
  }

  @Test func progressCountsCharactersAsTheyBegin() throws {
    let clock = ManualStepClock()
    let observer = RecordingObserver()
    let transmitter = Transmitter(
      torch: RecordingTorch(clock: clock),
      scheduler: StepScheduler(clock: clock, cancellation: Cancellation()), timing: timing,
      observers: [observer])
    _ = try transmitter.send(try MorseMessage("AB"))
    // A: on, gap, on; letter gap; B: on, gap, on, gap, on, gap, on.
    #expect(observer.progress.map(\.symbolsBegun) == [1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2])
    // A message sent whole was validated by the caller: no line is announced.
    #expect(observer.lines.isEmpty)
  }

  @Test func aPieceOfALongLineKeepsItsLineAndColumnInErrors() throws {
    let clock = ManualStepClock()
    let transmitter = Transmitter(
      torch: RecordingTorch(clock: clock),
      scheduler: StepScheduler(clock: clock, cancellation: Cancellation()), timing: timing)
    let source = PieceSource([
      LinePiece(Array("E ".utf8)), LinePiece(Array("E E ".utf8), continuesLine: true),
      LinePiece(Array("€".utf8), continuesLine: true),
    ])
    #expect(throws: MorseError.unsendable(UnsendableCharacter(character: "€", line: 1, column: 7)))
    {
      try transmitter.send(lines: source)
    }
  }

  @Test(arguments: [
    ("EE", [0, 100, 400, 500, 800, 1100] as [Double]),
    ("EE ", [0, 100, 400, 500, 1200, 1500] as [Double]),
  ])
  func aPieceGoesOnAfterALetterGapWithinAWordAndAWordGapAfterASpace(
    first: String, edges: [Double]
  ) throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let transmitter = Transmitter(
      torch: torch, scheduler: StepScheduler(clock: clock, cancellation: Cancellation()),
      timing: timing)
    let source = PieceSource([
      LinePiece(Array(first.utf8), endsLine: false, breaksWord: first == "EE"),
      LinePiece(Array("T".utf8), continuesLine: true),
    ])
    _ = try transmitter.send(lines: source)
    // E, E, then T after a letter gap (300 ms: the word "EET" cut for length) or a word gap
    // (700 ms: the line cut after a space).
    #expect(torch.events == timeline(edges))
  }

  @Test func aControlSequenceCutAtAnyByteBetweenTwoPiecesOfALineIsNotSent() throws {
    let line = Array("E\u{1B}[0;1;39mT\u{1B}]0;title\u{07}E\u{1B}]8;;x\u{1B}\\T\u{9B}1mE".utf8)
    // Where a line is cut: between characters (never inside a UTF-8 sequence).
    for cut in 1..<line.count where !(0x80...0xBF).contains(line[cut]) {
      let source = PieceSource([
        LinePiece(Array(line[..<cut]), endsLine: false, breaksWord: true),
        LinePiece(Array(line[cut...]), continuesLine: true),
      ])
      #expect(try sentText(source) == "ETETE", "cut at \(cut)")
    }
  }

  @Test func anUnterminatedStringOverItsLimitIsDroppedToTheEndOfItsLineWithOneReport() throws {
    let limit = ControlSequenceFilter.stringLimit
    let line = Array(("\u{1B}]" + String(repeating: "x", count: 2 * limit) + "TE").utf8)
    let pieces = stride(from: 0, to: line.count, by: 4096).map { start in
      LinePiece(
        Array(line[start..<min(start + 4096, line.count)]), continuesLine: start > 0,
        endsLine: start + 4096 >= line.count)
    }
    let observer = RecordingObserver()
    #expect(try sentText(PieceSource(pieces + [LinePiece(Array("E".utf8))]), observer) == "E")
    #expect(observer.overlong.map(\.kind) == [.operatingSystemCommand])
    #expect(observer.overlong.map(\.line) == [1])
  }

  @Test func aRepeatedMessageKeepsItsRoundsOnTheSchedule() throws {
    // Every wait wakes 7 ms late: the rounds start on the schedule all the same.
    let clock = ManualStepClock(lateness: .milliseconds(7))
    let torch = RecordingTorch(clock: clock)
    let observer = RecordingObserver()
    let transmitter = Transmitter(
      torch: torch, scheduler: StepScheduler(clock: clock, cancellation: Cancellation()),
      timing: timing, observers: [observer])
    let outcome = try transmitter.send(
      try MorseMessage("E"), repetition: Repetition(count: 3, pause: .milliseconds(500)))
    #expect(outcome == .completed)
    // E 0–100, pause 500, E 600–700, pause, E 1200–1300: each start on the schedule.
    #expect(
      clock.deadlines.map(\.sinceOrigin)
        == [0, 100, 600, 700, 1200, 1300].map(Duration.milliseconds))
    #expect(torch.events.map(\.milliseconds) == [7, 107, 607, 707, 1207, 1307])
    #expect(observer.progress.map(\.round) == [1, 2, 3])
  }

  @Test func aLoopGoesOnUntilStopped() throws {
    let clock = ManualStepClock()
    let torch = RecordingTorch(clock: clock)
    let cancellation = Cancellation()
    clock.schedule(at: at(2050)) { cancellation.cancel() }
    let transmitter = Transmitter(
      torch: torch, scheduler: StepScheduler(clock: clock, cancellation: cancellation),
      timing: timing)
    let outcome = try transmitter.send(
      try MorseMessage("E"), repetition: Repetition(count: nil, pause: .milliseconds(500)))
    #expect(outcome == .cancelled)
    #expect(torch.events == timeline([0, 100, 600, 700, 1200, 1300, 1800, 1900]))
  }

  @Test func anEmptyMessageIsNotLoopedForever() throws {
    let clock = ManualStepClock()
    let transmitter = Transmitter(
      torch: RecordingTorch(clock: clock),
      scheduler: StepScheduler(clock: clock, cancellation: Cancellation()), timing: timing)
    let message = try MorseMessage("€", unknownCharacters: .skip)
    #expect(
      try transmitter.send(message, repetition: Repetition(count: nil, pause: .zero)) == .completed)
  }
}

extension TransmitterTests {
  /// The text of the symbols `source` is sent as, skipping what has no Morse.
  func sentText(_ source: some LineSource, _ observer: RecordingObserver = RecordingObserver())
    throws -> String
  {
    let clock = ManualStepClock()
    let transmitter = Transmitter(
      torch: RecordingTorch(clock: clock),
      scheduler: StepScheduler(clock: clock, cancellation: Cancellation()), timing: timing,
      unknownCharacters: .skip, observers: [observer])
    _ = try transmitter.send(lines: source)
    return observer.lines.flatMap { $0.message }.map { token in
      if case .symbol(let symbol) = token { return symbol.text }
      return ""
    }.joined()
  }
}

/// Pieces of lines given up front.
final class PieceSource: LineSource, @unchecked Sendable {
  private var pieces: [LinePiece]
  init(_ pieces: [LinePiece]) { self.pieces = pieces }
  func nextLine() throws -> [UInt8]? { try nextPiece()?.bytes }
  func nextPiece() throws -> LinePiece? { pieces.isEmpty ? nil : pieces.removeFirst() }
  func close() {}
}

/// Lines that arrive after a delay on the manual clock.
final class SlowLineSource: LineSource, @unchecked Sendable {
  private let clock: ManualStepClock
  private var lines: [(String, Duration)]
  private let scheduler: StepScheduler?

  init(
    clock: ManualStepClock, lines: [(String, Duration)], cancelAtEnd scheduler: StepScheduler? = nil
  ) {
    self.clock = clock
    self.lines = lines
    self.scheduler = scheduler
  }

  func nextLine() throws -> [UInt8]? {
    guard !lines.isEmpty else {
      scheduler?.cancellation.cancel()
      return nil
    }
    let (line, delay) = lines.removeFirst()
    clock.advance(by: delay)
    return Array(line.utf8)
  }

  func close() {}
}
