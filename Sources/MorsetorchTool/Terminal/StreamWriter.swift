import LinuxSystem

/// Writes standard error (or output, for `--echo`) from a thread of its own, so that no
/// message ever blocks the transmission: a pipe nobody reads (`2>some-fifo`) can fill, but the
/// LED keeps its timing, a signal still stops it, and the LED is put back.
///
/// At most `capacity` messages wait; more are dropped and counted, and the count is said
/// once the writer catches up. `flush` at exit waits for the rest, a little while at most.
///
/// It also draws the progress line: a frame is a single slot that keeps only the latest one
/// (a slow terminal drops frames, it never queues them), redrawn in place at most every
/// `frameInterval` and at least every `refreshInterval` (the elapsed time moves on). A message
/// erases the line first and the frame comes back after it, so no message is ever appended
/// to a half-drawn line; `clearFrame` erases it for good.
final class StreamWriter: @unchecked Sendable {
  /// Makes the text of a frame, on the writer's thread, given the monotonic time now.
  typealias Frame = @Sendable (_ now: MonotonicInstant) -> String

  private let lock = Lock()
  private let changed = ConditionVariable()
  private var queue: [String] = []
  private var dropped = 0
  private var isWriting = false
  private var frame: Frame?
  private var isFrameNew = false
  private var isFrameOnScreen = false
  private var nextFrameTime: MonotonicInstant = .origin
  private let capacity: Int
  private let frameInterval: Duration
  private let refreshInterval: Duration
  private let sink: @Sendable (String) -> Void
  private let streamName: String

  /// "Carriage return, erase the line": where a frame was, nothing.
  static let eraseLine = "\r\u{1B}[K"

  init(
    streamName: String = "standard error", capacity: Int = 256,
    frameInterval: Duration = .milliseconds(40),
    refreshInterval: Duration = .milliseconds(200),
    sink: @escaping @Sendable (String) -> Void = { try? StandardStreams.write($0, to: .error) }
  ) throws(Errno) {
    self.streamName = streamName
    self.capacity = capacity
    self.frameInterval = frameInterval
    self.refreshInterval = refreshInterval
    self.sink = sink
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

  /// Replaces the frame to draw; never waits (the text is made on the writer's thread).
  func showFrame(_ frame: @escaping Frame) {
    lock.withLock {
      self.frame = frame
      isFrameNew = true
      changed.broadcast()
    }
  }

  /// Erases the frame, if one is drawn, and draws no more.
  func clearFrame() {
    lock.withLock {
      frame = nil
      isFrameNew = false
      changed.broadcast()
    }
  }

  /// Waits until everything queued is written (the latest frame too), or `timeout` has
  /// passed.
  func flush(timeout: Duration) {
    let deadline = MonotonicTime.now() + timeout
    let pause = OneShotEvent()
    while lock.withLock({
      !queue.isEmpty || isWriting || isFrameNew || (frame == nil && isFrameOnScreen)
    })
      && MonotonicTime.now() < deadline
    {
      _ = pause.wait(untilMonotonic: MonotonicTime.now() + .milliseconds(2))
    }
  }

  private func writeLoop() {
    while true {
      let text = lock.withLock { nextText() }
      sink(text)
      lock.withLock { isWriting = false }
    }
  }

  /// Waits (under the lock) for something to write: messages at once, frames when due.
  private func nextText() -> String {
    while true {
      let now = MonotonicTime.now()
      let isFrameDue =
        frame != nil && now >= nextFrameTime
        && (isFrameNew || now >= nextFrameTime - frameInterval + refreshInterval)
      if !queue.isEmpty || isFrameDue || (frame == nil && isFrameOnScreen) {
        isWriting = true
        return compose(now: now)
      }
      if frame != nil {
        let wake = isFrameNew ? nextFrameTime : nextFrameTime - frameInterval + refreshInterval
        changed.wait(lock, untilMonotonic: wake)
      } else {
        changed.wait(lock)
      }
    }
  }

  /// The messages (the frame erased before them), then the frame drawn again, if any.
  private func compose(now: MonotonicInstant) -> String {
    var text = ""
    if !queue.isEmpty || frame == nil, isFrameOnScreen {
      text += Self.eraseLine
      isFrameOnScreen = false
    }
    text += queue.joined()
    queue.removeAll()
    if dropped > 0 {
      let note = "(\(dropped) more messages dropped: \(streamName) was not read)"
      // Said on standard error, whichever stream lost them.
      if streamName == "standard error" {
        text += Console.errorLine(note)
      } else {
        Console.error(note)
      }
      dropped = 0
    }
    if let frame {
      text += "\r" + frame(now) + "\u{1B}[K"
      isFrameOnScreen = true
      nextFrameTime = now + frameInterval
    }
    isFrameNew = false
    return text
  }
}
