import CWDaemonProtocol
import DeviceContract
import Instants
import LinuxSystem
import MorseCore
import MorsePlayer
import SerialDriver
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
    case key(CWDaemonKeying, text: String, Extras)
    /// Key down, for tuning.
    case tune(Duration, Extras)

    /// What it counts for in the queue: its text's bytes (a tune, one).
    var size: Int {
      switch self {
      case .key(_, let text, _): max(text.utf8.count, 1)
      case .tune: 1
      }
    }

    /// What the session's settings add to a job when it is queued.
    struct Extras: Sendable {
      /// The PTT lead time (0: PTT is never raised).
      var pttDelay: Duration = .zero
      /// The sidetone's pitch in Hz, played on the system's sound device; nil for none.
      var sidetone: Int?
    }
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
    /// Whether a job was dropped since the queue last ran dry.
    var isDropping = false
    /// Whether `abort()` stopped the job being keyed (not a stop from outside).
    var isCurrentAborted = false
  }

  private let state: Monitor<State>
  private let environment: ProcessEnvironment
  private let log: CWDaemonLog
  /// Told, with the lock of neither held, when the queue has run dry after a job, and
  /// whether that job was cut short.
  private let whenIdle: @Sendable (_ wasCut: Bool) -> Void
  private let thread = WorkerThread()
  /// The serial port's line raised as PTT around each request (`-o ptt=`), nil for none.
  private let pttLine: SerialLine?

  /// What Ctrl-Z puts back: the devices of the request being keyed.
  private let jobControl: JobControl

  init(
    deviceWords: [String], pttLine: SerialLine?, jobControl: JobControl,
    environment: ProcessEnvironment, log: CWDaemonLog,
    whenIdle: @escaping @Sendable (_ wasCut: Bool) -> Void
  ) {
    state = Monitor(State(deviceWords: deviceWords))
    self.pttLine = pttLine
    self.jobControl = jobControl
    self.environment = environment
    self.log = log
    self.whenIdle = whenIdle
  }

  /// Starts the thread.
  func start() throws(Errno) {
    try thread.start { [self] in run() }
  }

  /// The most text waiting to be keyed, in bytes: cwdaemon's queue. A flood of datagrams
  /// beyond it is dropped, so that it costs neither memory nor an hour of keying.
  static let queueLimit = 4_000

  /// What became of a job given to `enqueue`.
  enum Queuing: Equatable {
    case queued
    /// Dropped: the queue holds `queueLimit` bytes already. `isFirst` for the first job
    /// dropped since the queue last ran dry (a flood is worth one warning).
    case dropped(isFirst: Bool)
  }

  /// Queues `job` after what is there, unless the queue is full.
  func enqueue(_ job: Job) -> Queuing {
    let queuing = state.withLock { state -> Queuing in
      let waiting = state.queue.reduce(0) { $0 + $1.size }
      guard waiting + job.size <= Self.queueLimit else {
        defer { state.isDropping = true }
        return .dropped(isFirst: !state.isDropping)
      }
      state.queue.append(job)
      return .queued
    }
    state.wakeWaiters()
    return queuing
  }

  /// Drops the queue and stops the job being keyed at once (key up).
  func abort() {
    let current = state.withLock { state -> Cancellation? in
      state.queue.removeAll()
      if state.current != nil { state.isCurrentAborted = true }
      return state.current
    }
    current?.cancel()
  }

  /// What is keyed, as the log says it: `send`'s words for the devices, or "nothing (null)".
  var keyed: String {
    let words = state.withLock { $0.deviceWords }
    return words.isEmpty ? "nothing (null)" : words.joined(separator: " ")
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
    // This thread keeps every request's deadlines: least timer slack, real-time where
    // allowed, once for the daemon's life.
    TimingPriority.raiseForCurrentThread()
    while true {
      let next = state.wait(
        until: { $0.isClosed || !$0.queue.isEmpty },
        then: { state -> (Job, Cancellation, [String], MonotonicInstant)? in
          guard !state.isClosed else { return nil }
          let job = state.queue.removeFirst()
          let cancellation = Cancellation()
          state.current = cancellation
          state.isCurrentAborted = false
          let start = state.lastEnd.map { $0 + state.owedGap } ?? MonotonicTime.now()
          return (job, cancellation, state.deviceWords, start)
        })
      guard let (job, cancellation, words, start) = next else { return }
      let end = key(job, words: words, startingAt: start, cancellation: cancellation)
      let (isIdle, wasCut) = state.withLock { state -> (Bool, Bool) in
        state.current = nil
        state.lastEnd = end
        // A text cut short from outside (a stop, a failure) takes what was queued after it;
        // one aborted was answered already, and what came after the abort stays.
        let wasCut = end == nil && !state.isCurrentAborted
        if wasCut { state.queue.removeAll() }
        if state.queue.isEmpty { state.isDropping = false }
        if case .key(let keying, _, _) = job {
          state.owedGap = keying.trailingGap
        } else {
          state.owedGap = .zero
        }
        return (state.queue.isEmpty, wasCut)
      }
      if isIdle { whenIdle(wasCut) }
    }
  }

  /// Keys `job` on the devices `words` name (none: on nothing, in time all the same), the
  /// first step at `start`; the end of its last mark, or nil if it was stopped or failed.
  private func key(
    _ job: Job, words: [String], startingAt start: MonotonicInstant, cancellation: Cancellation
  ) -> MonotonicInstant? {
    let (steps, text, speed, extras) = Self.steps(of: job)
    let pttDelay = extras.pttDelay
    let words = words + (extras.sidetone.map { ["--sound", "--tone", String($0)] } ?? [])
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
      jobControl.manage(claimed.torch)
      defer { jobControl.release() }
      var end: MonotonicInstant?
      let outcome = try claimed.finish(
        Result {
          let transmitter = Transmitter(
            torch: claimed.torch,
            scheduler: StepScheduler(clock: SystemStepClock(), cancellation: cancellation),
            timing: timing, observers: claimed.recordKeepers)
          let start = try raisePTT(on: claimed.torch, ahead: pttDelay, of: start)
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

  /// Raises PTT on the serial ports of `torch` (`-o ptt=`, a lead time set): the first mark
  /// then comes `delay` after it at the earliest; the restore drops it (as found). Where no
  /// port is keyed, or the delay is 0 (cwdaemon's "never touch PTT"), nothing.
  private func raisePTT(on torch: TorchGroup, ahead delay: Duration, of start: MonotonicInstant)
    throws -> MonotonicInstant
  {
    guard let pttLine, delay > .zero else { return start }
    let ports = torch.members.compactMap { member in
      (member as? SerialTorch) ?? ((member as? DelayedTorch)?.torch as? SerialTorch)
    }
    guard !ports.isEmpty else { return start }
    for port in ports { try port.setPTT(true, on: pttLine) }
    return max(start, MonotonicTime.now() + delay)
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

  /// A job's steps, what `status` shows of it, its speed (for the lateness rule) and what the
  /// settings added.
  private static func steps(of job: Job) -> ([MorseStep], String, Int, Job.Extras) {
    switch job {
    case .key(let keying, let text, let extras): return (keying.steps, text, keying.speed, extras)
    case .tune(let duration, let extras):
      let symbol = MorseSymbol(text: "(tune)", code: MorseCode([.dash]))
      return ([MorseStep(kind: .dash, duration: duration, symbol: symbol)], "(tune)", 60, extras)
    }
  }
}
