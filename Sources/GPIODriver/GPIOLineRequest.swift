import CLinuxSystem
import LinuxSystem


/// One requested GPIO line: the descriptor the kernel gave for it. Closing it (or the process
/// ending in any way) releases the line.
public struct GPIOLineRequest: ~Copyable, Sendable {
  /// An edge the kernel saw on an input line, with its own timestamp.
  public struct Event: Sendable, Hashable {
    /// When, in nanoseconds of CLOCK_MONOTONIC (unless requested with the realtime clock).
    public let timestampNanoseconds: UInt64
    /// Whether the line became active (a rising edge, in the line's active sense).
    public let isRising: Bool
    /// The line's event sequence number: a gap means the kernel's buffer overflowed.
    public let sequence: UInt32

    /// An event with these values.
    public init(timestampNanoseconds: UInt64, isRising: Bool, sequence: UInt32) {
      self.timestampNanoseconds = timestampNanoseconds
      self.isRising = isRising
      self.sequence = sequence
    }
  }

  private let file: FileDescriptor

  init(_ file: consuming FileDescriptor) {
    self.file = file
  }

  /// Drives an output line active (`true`) or inactive.
  public func set(_ isActive: Bool) throws(Errno) {
    guard morse_gpio_set(file.rawValue, isActive ? 1 : 0) == 0 else { throw Errno.current }
  }

  /// The line's value: whether it is active.
  public func value() throws(Errno) -> Bool {
    let value = morse_gpio_get(file.rawValue)
    guard value >= 0 else { throw Errno.current }
    return value == 1
  }

  /// Waits up to `timeout` for an event to be queued; whether one is.
  public func waitForEvent(timeout: Duration, unlessFired stop: OneShotEvent) -> Bool {
    file.waitUntilReadable(within: timeout, unlessFired: stop) == .readable
  }

  /// Reads the next event, blocking until there is one.
  public func nextEvent() throws(Errno) -> Event {
    var event = morse_gpio_event()
    let count = morse_gpio_read_event(file.rawValue, &event)
    guard count == 1 else { throw count == 0 ? .ioError : Errno.current }
    return Event(
      timestampNanoseconds: event.timestamp_ns, isRising: event.rising != 0,
      sequence: event.sequence)
  }

  /// Releases the line, reporting the error.
  public consuming func release() throws(Errno) {
    try file.close()
  }
}
