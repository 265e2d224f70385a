import Instants
import LinuxSystem
import Synchronization

/// A port's status lines as something waits for them to change: the open port, or a fake in
/// the tests.
public protocol SerialStatusLines: AnyObject, Sendable {
  /// The levels of all the lines now.
  func levels() throws(SerialError) -> SerialLevels
  /// Waits until one of `lines` changes (true), or until `wakeWaiter()` ends the wait (false;
  /// a wake that comes before the wait is lost).
  func waitForChange(of lines: Set<SerialLine>) throws(SerialError) -> Bool
  /// Ends a `waitForChange` in progress on another thread.
  func wakeWaiter()
  /// Closes the port (after any wait has ended).
  func close()
}

/// `receive --serial PORT:LINE`: one status line of a port (CTS, DSR, DCD, RI) as a key or a
/// light sensor moves it, each change timed as the kernel's modem-status interrupt wakes a
/// thread waiting for it (`TIOCMIWAIT`), without polling.
///
/// The wait has no timeout and `poll(2)` cannot see it, so it runs on a thread of its own; the
/// changes it sees reach `nextChange` through a queue and a pipe, which `poll(2)` waits on
/// beside the stop event. The time of a change is read as the waiting thread wakes: the
/// kernel keeps no time of its own for it. The level is read after each wake, and a change is
/// given only where the level differs from the last one given: a pulse shorter than a wake
/// is lost, as a bounce would be, and two changes in one wake cancel out.
public final class SerialInput: Sendable {
  /// One change of the line: when the waiting thread woke to it, and the level after it.
  public struct Change: Sendable, Equatable {
    public let time: MonotonicInstant
    public let isUp: Bool

    public init(time: MonotonicInstant, isUp: Bool) {
      self.time = time
      self.isUp = isUp
    }
  }

  /// What the waiting thread has seen and not yet given.
  private struct Seen {
    var changes: [Change] = []
    var failure: SerialError?
    var hasEnded = false
  }

  private let port: any SerialStatusLines
  /// The port's path, as it was opened.
  public let path: String
  /// The line read.
  public let line: SerialLine
  /// The level when it was opened.
  public let initialLevel: Bool
  private let seen = Mutex(Seen())
  private let stopping = Atomic(false)
  private let waiter = WorkerThread()
  private let ready: FileDescriptor
  private let signal: FileDescriptor

  /// Reads `line` of `port` (opened from `path`), which must be a status line (`notAnInput`
  /// for DTR and RTS); starts the thread that waits on it.
  public init(port: any SerialStatusLines, path: String, line: SerialLine) throws(SerialError) {
    guard !line.isOutput else { throw .notAnInput(line, path: path) }
    self.port = port
    self.path = path
    self.line = line
    let pipe: Pipe
    do {
      pipe = try Pipe()
    } catch {
      throw .io(operation: "make a pipe for", path: path, errno: error)
    }
    let level = try port.levels()[line]
    initialLevel = level
    ready = pipe.readEnd
    signal = pipe.writeEnd
    do throws(Errno) {
      try waiter.start { [self] in watch(from: level) }
    } catch {
      throw .io(operation: "start a thread to watch", path: path, errno: error)
    }
  }

  /// The waiting thread: each change of the level, until `stopping` or a failure.
  private func watch(from initial: Bool) {
    var level = initial
    var failure: SerialError?
    while !stopping.load(ordering: .acquiring) {
      do throws(SerialError) {
        guard try port.waitForChange(of: [line]) else { continue }
        let time = MonotonicTime.now()
        let now = try port.levels()[line]
        guard now != level else { continue }
        level = now
        seen.withLock { $0.changes.append(Change(time: time, isUp: now)) }
        nudge()
      } catch {
        failure = error
        break
      }
    }
    seen.withLock {
      $0.failure = failure
      $0.hasEnded = true
    }
    nudge()
  }

  /// One byte down the pipe: `nextChange` has something to look at.
  private func nudge() {
    _ = try? [UInt8(1)].withUnsafeBytes { buffer throws(Errno) in try signal.write(buffer) }
  }

  /// The next change, waiting up to `timeout` for it; nil if none came in that time or once
  /// `stop` has fired. Throws what ended the waiting thread (the port unplugged).
  public func nextChange(within timeout: Duration, unlessFired stop: OneShotEvent)
    throws(SerialError) -> Change?
  {
    let deadline = MonotonicTime.now() + timeout
    while true {
      let (change, failure) = seen.withLock { seen -> (Change?, SerialError?) in
        if !seen.changes.isEmpty { return (seen.changes.removeFirst(), nil) }
        return (nil, seen.hasEnded ? seen.failure : nil)
      }
      if let change { return change }
      if let failure { throw failure }
      let left = deadline - MonotonicTime.now()
      guard left > .zero, ready.waitUntilReadable(within: left, unlessFired: stop) == .readable
      else { return nil }
      var bytes = [UInt8](repeating: 0, count: 64)
      _ = try? bytes.withUnsafeMutableBytes { buffer throws(Errno) in try ready.read(into: buffer) }
    }
  }

  /// Ends the waiting thread (woken again every few milliseconds until it has: a wake that
  /// comes just before its wait begins is lost), then closes the port. Call it once.
  public func close() {
    stopping.store(true, ordering: .releasing)
    repeat {
      port.wakeWaiter()
    } while !waiter.wait(untilMonotonic: MonotonicTime.now() + .milliseconds(5))
    port.close()
  }
}
