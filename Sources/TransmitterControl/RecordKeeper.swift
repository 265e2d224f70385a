import Instants
import LinuxSystem
import MorsePlayer

/// Keeps a transmission's record up to date as it progresses, off the timing path: the
/// observer of a transmission that `morsetorch status` reads.
///
/// Each step only stores the latest progress and wakes a writer thread, which writes at most
/// once per `interval`: no file I/O ever delays a step.
public final class RecordKeeper: TransmissionObserver, Sendable {
  /// What the writer is told, under the monitor's lock.
  private struct State: Sendable {
    var latest: TransmissionRecord
    var isDirty = false
    var isStopped = false
  }

  private let deviceLock: DeviceLock
  private let state: Monitor<State>
  private let writer = WorkerThread()
  private let pause = OneShotEvent()
  private let interval: Duration

  init(
    deviceLock: DeviceLock, record: TransmissionRecord, interval: Duration = .milliseconds(200)
  ) throws(Errno) {
    self.deviceLock = deviceLock
    state = Monitor(State(latest: record))
    self.interval = interval
    try writer.start { [self] in writeLoop() }
  }

  /// Stores the progress for the writer.
  public func transmission(didBegin progress: Transmitter.Progress) {
    state.withLock { state in
      state.latest.sentSymbols = progress.symbolsBegun
      state.latest.line = progress.line
      if state.latest.rounds != nil { state.latest.round = progress.round }
      state.latest.waitingForLine = nil
      state.isDirty = true
    }
    state.wakeWaiters()
  }

  /// Stores that the transmitter is idle, waiting for input line `line`, for the writer.
  public func transmissionIsWaitingForInput(line: Int) {
    state.withLock { state in
      state.latest.waitingForLine = line
      state.isDirty = true
    }
    state.wakeWaiters()
  }

  /// Stops the writer and waits for it; the last record it wrote stays until removed.
  func stop() {
    state.withLock { $0.isStopped = true }
    state.wakeWaiters()
    pause.fire()
    writer.wait()
  }

  private func writeLoop() {
    while true {
      let record = state.wait(until: { $0.isDirty || $0.isStopped }) {
        state -> TransmissionRecord? in
        if state.isStopped { return nil }
        state.isDirty = false
        return state.latest
      }
      guard let record else { return }
      try? deviceLock.write(record)
      _ = pause.wait(untilMonotonic: MonotonicTime.now() + interval)
      if state.withLock({ $0.isStopped }) { return }
    }
  }
}
