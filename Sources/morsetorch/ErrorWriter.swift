import LinuxSystem

/// Writes standard error from a thread of its own, so that no message ever blocks the
/// transmission: a pipe nobody reads (`2>some-fifo`) can fill, but the LED keeps its timing,
/// a signal still stops it, and the LED is put back.
///
/// At most `capacity` messages wait; more are dropped and counted, and the count is said
/// once the writer catches up. `flush` at exit waits for the rest, a little while at most.
final class ErrorWriter: @unchecked Sendable {
  private let lock = Lock()
  private let changed = ConditionVariable()
  private var queue: [String] = []
  private var dropped = 0
  private var isWriting = false
  private let capacity: Int

  init(capacity: Int = 256) throws(Errno) {
    self.capacity = capacity
    try Threads.start { [self] in writeLoop() }
  }

  /// Queues `text`; never waits.
  func write(_ text: String) {
    lock.withLock {
      if queue.count >= capacity {
        dropped += 1
      } else {
        queue.append(text)
      }
      changed.broadcast()
    }
  }

  /// Waits until everything queued is written, or `timeout` has passed.
  func flush(timeout: Duration) {
    let deadline = MonotonicTime.now() + timeout
    let pause = OneShotEvent()
    while lock.withLock({ !queue.isEmpty || isWriting }) && MonotonicTime.now() < deadline {
      _ = pause.wait(untilMonotonic: MonotonicTime.now() + .milliseconds(2))
    }
  }

  private func writeLoop() {
    while true {
      let text: String = lock.withLock {
        while queue.isEmpty { changed.wait(lock) }
        isWriting = true
        var text = queue.removeFirst()
        if queue.isEmpty && dropped > 0 {
          text += "morsetorch: (\(dropped) more messages dropped: standard error was not read)\n"
          dropped = 0
        }
        return text
      }
      try? StandardStreams.write(text, to: .error)
      lock.withLock { isWriting = false }
    }
  }
}
