import Instants
import LinuxSystem
import Synchronization

/// A torch switched `delay` after each call to `set`: what holds an LED back for a sound that
/// is heard later than it is made (`TorchGroup`).
///
/// A thread of its own makes each switch at an absolute deadline on the monotonic clock (the
/// call's time plus the delay), so the delay never adds up. A failed switch is thrown by the
/// next `set` and reported to the transmission's cancellation at once. `drain` waits for what
/// is pending; `restore` and `suspend` drop it and put the device back at once.
///
/// Unchecked: the wrapped torch is switched by the thread alone, and restored only once the
/// thread has ended (`suspend` and `resume` come from the signal watcher, as the `Torch`
/// contract allows: the torch orders them by its own lock).
public final class DelayedTorch: Torch, @unchecked Sendable {
  /// The torch held back.
  public let torch: any Torch
  /// How long each switch is held back.
  public let delay: Duration

  private struct Queue {
    var pending: [(at: MonotonicInstant, isOn: Bool)] = []
    var isSwitching = false
    var isClosed = false
    var failure: (any Error)?
  }

  private let queue = Monitor(Queue())
  private let worker = WorkerThread()
  private let isStarted = Atomic(false)
  private let cancellation = Mutex<Cancellation?>(nil)

  /// `torch`, each switch made `delay` later.
  public init(_ torch: any Torch, by delay: Duration) {
    self.torch = torch
    self.delay = delay
  }

  /// Shows as late as the torch it holds back, plus the delay.
  public var latency: Duration { torch.latency + delay }

  /// Schedules the switch `delay` from now; throws a failure of an earlier one.
  public func set(_ isOn: Bool) throws {
    if let failure = queue.withLock({ $0.failure }) { throw failure }
    if !isStarted.exchange(true, ordering: .acquiringAndReleasing) {
      do {
        try worker.start { [self] in run() }
      } catch {
        isStarted.store(false, ordering: .releasing)
        throw error
      }
    }
    let at = MonotonicTime.now() + delay
    queue.withLock { $0.pending.append((at, isOn)) }
    queue.wakeWaiters()
  }

  /// The thread: each pending switch at its time, until closed.
  private func run() {
    while true {
      let next = queue.wait(
        until: { $0.isClosed || ($0.pending.first.map { MonotonicTime.now() >= $0.at } ?? false) },
        orDeadline: { $0.pending.first?.at },
        then: { queue -> Bool? in
          guard !queue.isClosed, let first = queue.pending.first else { return nil }
          queue.pending.removeFirst()
          queue.isSwitching = true
          return first.isOn
        })
      guard let isOn = next else {
        if queue.withLock({ $0.isClosed }) { return }
        continue
      }
      do {
        try torch.set(isOn)
      } catch {
        queue.withLock { $0.failure = error }
        cancellation.withLock { $0 }?.fail(error)
      }
      queue.withLock { $0.isSwitching = false }
      queue.wakeWaiters()
    }
  }

  /// Waits until every switch made has been made on the torch (or one failed: thrown); then
  /// the torch's own drain.
  public func drain() throws {
    let failure = queue.wait(
      until: { ($0.pending.isEmpty && !$0.isSwitching) || $0.failure != nil },
      then: { $0.failure })
    if let failure { throw failure }
    try torch.drain()
  }

  /// Drops what is pending, ends the thread, and restores the torch.
  public func restore() throws {
    queue.withLock {
      $0.pending.removeAll()
      $0.isClosed = true
    }
    queue.wakeWaiters()
    if isStarted.load(ordering: .acquiring) { worker.wait() }
    try torch.restore()
  }

  /// Drops what is pending (a switch already under way finishes first, by the torch's lock)
  /// and puts the device back for a while.
  public func suspend() throws {
    queue.withLock { $0.pending.removeAll() }
    try torch.suspend()
  }

  public func resume() throws {
    try torch.resume()
  }

  public func reportFailures(to cancellation: Cancellation) {
    self.cancellation.withLock { $0 = cancellation }
    torch.reportFailures(to: cancellation)
  }

  public var settingsLeftAlone: [(device: DeviceID, setting: SkippedSetting)] {
    torch.settingsLeftAlone
  }
}
