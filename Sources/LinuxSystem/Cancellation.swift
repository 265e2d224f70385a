import Instants
import Synchronization

/// A one-way switch that stops what waits on it (a transmission, a wait for a device, a
/// reading), and wakes it at once.
///
/// Made by whoever owns the work (the executable) and handed to what does it: the scheduler,
/// the line source and the session of a transmission; the source and loop of a reading.
/// `cancel()` stops it; `fail(_:)` stops it with a cause (a
/// device that vanished), which the scheduler rethrows. Its `event` is async-signal-safe to
/// fire, so a signal handler can stop the transmission itself: the waiting step wakes straight
/// from the signal. `onCancel` handlers run on the next `cancel()` or `fail(_:)` from an
/// ordinary thread.
public final class Cancellation: Sendable {
  /// The event that marks it cancelled: fired directly by a signal handler, or by `cancel()`.
  public let event = OneShotEvent()
  private let state = Mutex(State())

  /// The handlers still to run, and the cause; guarded by `state`.
  private struct State {
    var handlersRan = false
    var handlers: [@Sendable () -> Void] = []
    var cause: (any Error)?
  }

  /// A cancellation that has not fired.
  public init() {}

  /// Whether it has fired.
  public var isCancelled: Bool { event.isFired }

  /// Why it fired, when a failure stopped it (see `fail(_:)`); nil for a plain cancel.
  public var failure: (any Error)? { state.withLock { $0.cause } }

  /// Fires: wakes every waiter and runs the handlers once. Later calls do nothing more.
  /// Returns whether this call fired it (false: something fired it before).
  @discardableResult
  public func cancel() -> Bool {
    let isFirst = event.fire()
    let toRun: [@Sendable () -> Void] = state.withLock { state in
      guard !state.handlersRan else { return [] }
      state.handlersRan = true
      defer { state.handlers = [] }
      return state.handlers
    }
    for handler in toRun { handler() }
    return isFirst
  }

  /// Fires because of `error`, unless it fired already (the first cause wins).
  public func fail(_ error: any Error) {
    state.withLock { state in
      if !event.isFired && state.cause == nil { state.cause = error }
    }
    cancel()
  }

  /// Runs `handler` when the cancellation fires (at once, if it already has).
  public func onCancel(_ handler: @escaping @Sendable () -> Void) {
    let runNow: Bool = state.withLock { state in
      if state.handlersRan || isCancelled { return true }
      state.handlers.append(handler)
      return false
    }
    if runNow { handler() }
  }

  /// Waits until the monotonic clock reaches `deadline`; returns false if cancelled first.
  public func wait(untilMonotonic deadline: MonotonicInstant) -> Bool {
    event.wait(untilMonotonic: deadline)
  }

  /// Waits until cancelled.
  public func waitUntilCancelled() {
    event.wait()
  }
}
