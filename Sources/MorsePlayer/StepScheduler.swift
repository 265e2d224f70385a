import DeviceContract
import Instants
import LinuxSystem
import MorseCore

/// Runs steps one at a time against a torch, each at an absolute deadline.
///
/// Like a serial `OperationQueue`: at most one step runs at a time, in order, and the
/// cancellation (fired from any thread, or a signal handler) stops the queue — the waiting
/// step wakes at once, nothing after it runs, and the torch is switched off. Step N starts at
/// `start` plus the durations of the steps before it, computed from the schedule and never
/// from when the previous write happened, so a late wake-up never shifts the rest of the
/// message.
public final class StepScheduler: Sendable {
  /// The clock the deadlines are on.
  public let clock: any StepClock
  /// Stops the run; its owner fires it.
  public let cancellation: Cancellation

  /// A scheduler on `clock`, stopped by `cancellation`.
  public init(clock: any StepClock, cancellation: Cancellation) {
    self.clock = clock
    self.cancellation = cancellation
  }

  /// Whether the run has been stopped.
  public var isCancelled: Bool { cancellation.isCancelled }

  /// Runs `steps` on `torch`, the first at `start`; returns when the last has ended.
  ///
  /// Lateness: a step that starts late is made up by the steps after it, never by shortening
  /// any element (mark or gap) below three quarters of its nominal length — what a receiver
  /// hears is each element's length, so a hiccup at a 1 ms unit must not make the next dot
  /// vanish. Each step ends at its scheduled end or three quarters of its length after it
  /// began, whichever is later, so the schedule is caught up within a few elements and errors
  /// never add up. A step later than `lateTolerance` (the machine stalled, or the process was
  /// stopped and continued) moves the rest of the schedule by its lateness instead, so the rest
  /// of the message keeps its rhythm rather than being squeezed; the steps before it simply
  /// lasted longer.
  ///
  /// `observer` is told of each step just after the torch switched for it. On an error from
  /// the torch, or a failure reported through the cancellation (`Cancellation.fail`), the
  /// torch is switched off (best effort) and the error is thrown. The torch is always off when
  /// this returns or throws; restoring it is the caller's job.
  public func run(
    _ steps: some Sequence<MorseStep>, on torch: any Torch, startingAt start: MonotonicInstant,
    lateTolerance: Duration = .milliseconds(50),
    observer: ((MorseStep, MonotonicInstant) -> Void)? = nil
  ) throws -> StepRunOutcome {
    // Where the schedule puts the next step, and when it is switched: later by what is still
    // to be made up.
    var scheduled = start
    var deadline = start
    var isOn = false
    do {
      for step in steps {
        guard clock.wait(until: deadline, unlessCancelled: cancellation) else {
          if isOn { try torch.set(false) }
          isOn = false
          return try stoppedOutcome()
        }
        let now = clock.now()
        if now - scheduled > lateTolerance { scheduled = now }
        try torch.set(step.isOn)
        isOn = step.isOn
        observer?(step, max(scheduled, deadline))
        scheduled = scheduled + step.duration
        // Three quarters from when the switch was done, not from the wake-up: a slow write
        // (a busy sysfs, a stalled bus) must not eat into the element either.
        deadline = max(scheduled, clock.now() + step.duration * 3 / 4)
      }
      let reachedEnd = clock.wait(until: deadline, unlessCancelled: cancellation)
      if isOn { try torch.set(false) }
      isOn = false
      return reachedEnd ? .completed(end: deadline) : try stoppedOutcome()
    } catch {
      if isOn { try? torch.set(false) }
      throw error
    }
  }

  /// `.cancelled` after a plain cancel; throws the failure that stopped the run otherwise.
  public func stoppedOutcome() throws -> StepRunOutcome {
    if let failure = cancellation.failure { throw failure }
    return .cancelled
  }
}
