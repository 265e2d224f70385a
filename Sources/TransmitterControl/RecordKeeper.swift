import LinuxSystem
import MorsePlayer

/// Keeps a transmission's record up to date as it progresses, off the timing path: the
/// observer of a transmission that `morsetorch status` reads.
///
/// Each step only stores the latest progress and wakes a writer thread, which writes at most
/// once per `interval`: no file I/O ever delays a step.
public final class RecordKeeper: TransmissionObserver,
  @unchecked Sendable
{
  private let deviceLock: DeviceLock
  private let lock = Lock()
  private let changed = ConditionVariable()
  private var latest: TransmissionRecord
  private var isDirty = false
  private var isStopped = false
  private let finished = OneShotEvent()
  private let pause = OneShotEvent()
  private let interval: Duration

  init(
    deviceLock: DeviceLock, record: TransmissionRecord,
    interval: Duration = .milliseconds(200)
  ) throws(Errno) {
    self.deviceLock = deviceLock
    latest = record
    self.interval = interval
    try Threads.start { [self] in writeLoop() }
  }

  /// Stores the progress for the writer.
  public func transmission(didBegin progress: Transmitter.Progress) {
    lock.withLock {
      latest.sentSymbols = progress.symbolsBegun
      latest.line = progress.line
      if latest.rounds != nil { latest.round = progress.round }
      latest.waitingForLine = nil
      isDirty = true
      changed.signal()
    }
  }

  /// Stores that the transmitter is idle, waiting for input line `line`, for the writer.
  public func transmissionIsWaitingForInput(line: Int) {
    lock.withLock {
      latest.waitingForLine = line
      isDirty = true
      changed.signal()
    }
  }

  /// Stops the writer and waits for it; the last record it wrote stays until removed.
  func stop() {
    lock.withLock {
      isStopped = true
      changed.signal()
    }
    pause.fire()
    finished.wait()
  }

  private func writeLoop() {
    while true {
      let record: TransmissionRecord? = lock.withLock {
        while !isDirty && !isStopped { changed.wait(lock) }
        if isStopped { return nil }
        isDirty = false
        return latest
      }
      guard let record else { break }
      try? deviceLock.write(record)
      _ = pause.wait(untilMonotonic: MonotonicTime.now() + interval)
      if lock.withLock({ isStopped }) { break }
    }
    finished.fire()
  }
}
