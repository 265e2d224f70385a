import CWDaemonProtocol
import DeviceContract
import Instants
import LinuxSystem
import MorseCore
import MorsePlayer
import TransmitterControl

/// The daemon's keyer: a thread that keys what the session queues, one request at a time, each
/// on the devices reserved and claimed for it alone (as a `send` would), so that between
/// requests `send`, `stop` and `status` find them free; `stop` or a rerun of `send` cancels the
/// request being keyed, and the daemon goes on.
///
/// Requests follow one another on the schedule: the next starts the gap its predecessor owes
/// (a letter gap, or a word gap after a space) after that one's last mark, or as it comes.
final class CWDaemonKeyer: Sendable {
  /// What is keyed.
  enum Job: Sendable {
    /// A request's text.
    case key(CWDaemonKeying, text: String)
    /// Key down, for tuning.
    case tune(Duration)
  }

  private struct State: Sendable {
    var queue: [Job] = []
    /// The job being keyed: what an abort cancels.
    var current: Cancellation?
    var isClosed = false
    /// `send`'s words for the devices keyed (`--serial /dev/ttyS0:dtr --led a`).
    var deviceWords: [String]
    /// The last job's end and the gap it owes.
    var lastEnd: MonotonicInstant?
    var owedGap: Duration = .zero
  }

  private let state: Monitor<State>
  private let environment: ProcessEnvironment
  private let log: CWDaemonLog
  /// Told, with the lock of neither held, when the queue has run dry after a job, and
  /// whether that job was cut short.
  private let whenIdle: @Sendable (_ wasCut: Bool) -> Void
  private let thread = WorkerThread()

  init(
    deviceWords: [String], environment: ProcessEnvironment, log: CWDaemonLog,
    whenIdle: @escaping @Sendable (_ wasCut: Bool) -> Void
  ) {
    state = Monitor(State(deviceWords: deviceWords))
    self.environment = environment
    self.log = log
    self.whenIdle = whenIdle
  }

  /// Starts the thread.
  func start() throws(Errno) {
    try thread.start { [self] in run() }
  }

  /// Queues `job` after what is there.
  func enqueue(_ job: Job) {
    state.withLock { $0.queue.append(job) }
    state.wakeWaiters()
  }

  /// Drops the queue and stops the job being keyed at once (key up).
  func abort() {
    let current = state.withLock { state -> Cancellation? in
      state.queue.removeAll()
      return state.current
    }
    current?.cancel()
  }

  /// Keys on these devices from the next job on.
  func use(deviceWords: [String]) {
    state.withLock { $0.deviceWords = deviceWords }
  }

  /// Aborts, ends the thread and waits for it: every device is back when this returns.
  func close() {
    state.withLock { $0.isClosed = true }
    abort()
    state.wakeWaiters()
    thread.wait()
  }

  private func run() {
    while true {
      let next = state.wait(
        until: { $0.isClosed || !$0.queue.isEmpty },
        then: { state -> (Job, Cancellation, [String], MonotonicInstant)? in
          guard !state.isClosed else { return nil }
          let job = state.queue.removeFirst()
          let cancellation = Cancellation()
          state.current = cancellation
          let start = state.lastEnd.map { $0 + state.owedGap } ?? MonotonicTime.now()
          return (job, cancellation, state.deviceWords, start)
        })
      guard let (job, cancellation, words, start) = next else { return }
      let end = key(job, words: words, startingAt: start, cancellation: cancellation)
      let isIdle = state.withLock { state -> Bool in
        state.current = nil
        state.lastEnd = end
        // A text cut short (stopped from outside, or failed) takes what was queued after it.
        if end == nil { state.queue.removeAll() }
        if case .key(let keying, _) = job {
          state.owedGap = keying.trailingGap
        } else {
          state.owedGap = .zero
        }
        return state.queue.isEmpty
      }
      if isIdle { whenIdle(end == nil) }
    }
  }

  /// Keys `job` on the devices `words` name (none: on nothing, in time all the same), the
  /// first step at `start`; the end of its last mark, or nil if it was stopped or failed.
  private func key(
    _ job: Job, words: [String], startingAt start: MonotonicInstant, cancellation: Cancellation
  ) -> MonotonicInstant? {
    let (steps, text, speed) = Self.steps(of: job)
    do {
      let timing = MorseTiming(unit: .microseconds(1_200_000 / speed))
      guard let devices = try devices(words) else {
        return try transmit(steps, on: VirtualTorch(), timing: timing, start, cancellation)
      }
      let runtime = try RuntimeDirectory(environment: environment.variables)
      let reservation = try TransmitterSession.reserve(
        devices, in: runtime, policy: .wait, cancellation: cancellation,
        whenWaiting: { [log] device in
          log.warning("\(DeviceNames.naming([device])) is busy: waiting for it")
        })
      guard case .reserved(let session) = reservation else {
        log.warning("\"\(text)\" not keyed: aborted while waiting for the device")
        return nil
      }
      session.notes.forEach { log.warning($0.message) }
      // A character begins with each mark that no element gap leads to.
      let symbols = zip([nil] + steps.map(Optional.some), steps).filter { previous, step in
        step.isOn && previous?.kind != .elementGap
      }.count
      let claimed = try session.claim(text: text, totalSymbols: symbols)
      var end: MonotonicInstant?
      let outcome = try claimed.finish(
        Result {
          let transmitter = Transmitter(
            torch: claimed.torch,
            scheduler: StepScheduler(clock: SystemStepClock(), cancellation: cancellation),
            timing: timing, observers: claimed.recordKeepers)
          TimingPriority.raiseForCurrentThread()
          let outcome = try transmitter.send(steps: steps, startingAt: start)
          end = transmitter.lastEnd
          return outcome
        })
      if let request = claimed.stopRequest {
        log.warning(
          "\"\(text)\" cancelled by pid \(request.processID) (`morsetorch stop` or a rerun of "
            + "send); key up, and listening")
      }
      return outcome == .completed ? end : nil
    } catch {
      let report = failureReport(for: error)
      log.error("\"\(text)\" not keyed to its end: " + report.message + "; key up, and listening")
      return nil
    }
  }

  /// Runs `steps` on a torch of no device.
  private func transmit(
    _ steps: [MorseStep], on torch: VirtualTorch, timing: MorseTiming, _ start: MonotonicInstant,
    _ cancellation: Cancellation
  ) throws -> MonotonicInstant? {
    let transmitter = Transmitter(
      torch: torch, scheduler: StepScheduler(clock: SystemStepClock(), cancellation: cancellation),
      timing: timing)
    return try transmitter.send(steps: steps, startingAt: start) == .completed
      ? transmitter.lastEnd : nil
  }

  /// The devices `words` name, as `send` finds them; nil for none.
  func devices(_ words: [String]) throws -> [any TorchDevice]? {
    guard !words.isEmpty else { return nil }
    let arguments = try ParsedArguments<SendOption>(words, command: "cwdaemon")
    let named = DeviceKind.allCases.filter { arguments.has($0.home.sendOption) }
    let choice = SendChoices(try named.map { try $0.home.sendChoice(arguments) })
    return try choice.devices(environment: environment)
  }

  /// A job's steps, what `status` shows of it, and its speed (for the lateness rule).
  private static func steps(of job: Job) -> ([MorseStep], String, Int) {
    switch job {
    case .key(let keying, let text): return (keying.steps, text, keying.speed)
    case .tune(let duration):
      let symbol = MorseSymbol(text: "(tune)", code: MorseCode([.dash]))
      return ([MorseStep(kind: .dash, duration: duration, symbol: symbol)], "(tune)", 60)
    }
  }
}
