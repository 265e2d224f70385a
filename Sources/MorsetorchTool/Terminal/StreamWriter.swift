import Instants
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
/// to a half-drawn line; `clearFrame` erases it for good. A frame may be several lines
/// (`receive --show`): it is redrawn from its first line (the cursor moved up to it), so it
/// must fit the terminal's height and each line its width.
final class StreamWriter: Sendable {
  /// Makes the text of a frame, on the writer's thread, given the monotonic time now.
  typealias Frame = @Sendable (_ now: MonotonicInstant) -> String

  /// What the writer's thread has to write, changed by the others.
  private struct State {
    var queue: [String] = []
    var dropped = 0
    var isWriting = false
    var frame: Frame?
    var isFrameNew = false
    var isFrameOnScreen = false
    /// The line breaks in the frame on screen: how far up its first line is.
    var frameLines = 0
    var nextFrameTime: MonotonicInstant = .origin

    /// Nothing queued, being written or still to be drawn or erased.
    var isIdle: Bool {
      queue.isEmpty && !isWriting && !isFrameNew && !(frame == nil && isFrameOnScreen)
    }
  }

  private let state = Monitor(State())
  private let capacity: Int
  private let frameInterval: Duration
  private let refreshInterval: Duration
  private let sink: @Sendable (String) -> Void
  private let streamName: String

  /// "Carriage return, erase the line": where a frame was, nothing.
  static let eraseLine = "\r\u{1B}[K"

  /// Where a frame of `lines` line breaks was, nothing: the cursor at its first line's start
  /// and the screen erased from there down.
  static func erase(lines: Int) -> String {
    lines == 0 ? eraseLine : "\r\u{1B}[\(lines)A\u{1B}[J"
  }

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
    change { [capacity] state in
      if state.queue.count >= capacity {
        state.dropped += 1
      } else {
        state.queue.append(text)
      }
    }
  }

  /// Replaces the frame to draw; never waits (the text is made on the writer's thread).
  func showFrame(_ frame: @escaping Frame) {
    change { state in
      state.frame = frame
      state.isFrameNew = true
    }
  }

  /// Erases the frame, if one is drawn, and draws no more.
  func clearFrame() {
    change { state in
      state.frame = nil
      state.isFrameNew = false
    }
  }

  /// Waits until everything queued is written (the latest frame too), or `timeout` has
  /// passed.
  func flush(timeout: Duration) {
    let deadline = MonotonicTime.now() + timeout
    state.wait(until: \.isIdle, orDeadline: { _ in deadline }, then: { _ in })
  }

  private func change(_ body: (inout State) -> Void) {
    state.withLock(body)
    state.wakeWaiters()
  }

  private func writeLoop() {
    while true {
      let text = state.wait(until: hasWork, orDeadline: nextWake) { state in
        state.isWriting = true
        return compose(&state, now: MonotonicTime.now())
      }
      sink(text)
      change { $0.isWriting = false }
    }
  }

  /// Whether there is something to write now: messages at once, frames when due.
  private func hasWork(_ state: State) -> Bool {
    let now = MonotonicTime.now()
    let isFrameDue =
      state.frame != nil && now >= state.nextFrameTime
      && (state.isFrameNew || now >= state.nextFrameTime - frameInterval + refreshInterval)
    return !state.queue.isEmpty || isFrameDue || (state.frame == nil && state.isFrameOnScreen)
  }

  /// When a frame is next due (a new one after `frameInterval`, the same one again after
  /// `refreshInterval`); nil without a frame.
  private func nextWake(_ state: State) -> MonotonicInstant? {
    guard state.frame != nil else { return nil }
    return state.isFrameNew
      ? state.nextFrameTime : state.nextFrameTime - frameInterval + refreshInterval
  }

  /// The messages (the frame erased before them), then the frame drawn again, if any.
  private func compose(_ state: inout State, now: MonotonicInstant) -> String {
    var text = ""
    if !state.queue.isEmpty || state.frame == nil, state.isFrameOnScreen {
      text += Self.erase(lines: state.frameLines)
      state.isFrameOnScreen = false
      state.frameLines = 0
    }
    text += state.queue.joined()
    state.queue.removeAll()
    if state.dropped > 0 {
      let note = "(\(state.dropped) more messages dropped: \(streamName) was not read)"
      // Said on standard error, whichever stream lost them.
      if streamName == "standard error" {
        text += Console.errorLine(note)
      } else {
        Console.error(note)
      }
      state.dropped = 0
    }
    if let frame = state.frame {
      let drawn = frame(now)
      let lines = drawn.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
      // Over the frame on screen, from its first line; each line's rest erased, and the
      // lines below too when the new frame is shorter.
      if state.frameLines > 0 { text += "\u{1B}[\(state.frameLines)A" }
      text += "\r" + drawn.replacing("\n", with: "\u{1B}[K\n") + "\u{1B}[K"
      if lines < state.frameLines { text += "\u{1B}[J" }
      state.frameLines = lines
      state.isFrameOnScreen = true
      state.nextFrameTime = now + frameInterval
    }
    state.isFrameNew = false
    return text
  }
}
