import LinuxSystem
import SerialDriver
import Synchronization

/// A serial port as the kernel's tty layer treats its modem lines: an open raises DTR and RTS
/// unless the kept speed is 0, a close drops them if HUPCL is set, and the settings are kept
/// from one open to the next. Every change of a line is recorded, whoever made it.
public final class SimulatedSerialPort: Sendable {
  /// One change of one line: which, to what level, and by whom.
  public struct Change: Sendable, Hashable {
    public let line: SerialLine
    public let isUp: Bool
    /// "open", "close" (the kernel's), or "ioctl" (the program's).
    public let cause: String
  }

  private struct State {
    var levels: SerialLevels
    var settings: SerialSettings
    var changes: [Change] = []
    /// Each call a program made to switch lines, with the lines it moved.
    var calls: [Set<SerialLine>] = []
    /// The tty's exclusive mode (kept by the kernel across closes).
    var isExclusive = false
  }

  private let state: Mutex<State>

  /// What a thread waiting for a status line to change watches (`TIOCMIWAIT`): the changes
  /// made from the far end, the wakes, and how many threads wait now.
  private struct Wire {
    var changes = 0
    var wakes = 0
    var waiting = 0
    var failure: SerialError?
  }
  private let wire = Monitor(Wire())

  /// A closed port with its lines at `levels` and the kernel's kept `settings`.
  public init(levels: SerialLevels = SerialLevels(), settings: SerialSettings) {
    state = Mutex(State(levels: levels, settings: settings))
  }

  /// The lines now.
  public var levels: SerialLevels { state.withLock { $0.levels } }
  /// Every change so far.
  public var changes: [Change] { state.withLock { $0.changes } }
  /// The program's calls that moved lines, each with the lines it moved together.
  public var calls: [Set<SerialLine>] { state.withLock { $0.calls } }
  /// The settings the kernel keeps.
  public var settings: SerialSettings { state.withLock { $0.settings } }
  /// Whether the port is in exclusive mode.
  public var isExclusive: Bool {
    get { state.withLock { $0.isExclusive } }
    set { state.withLock { $0.isExclusive = newValue } }
  }

  private static func move(_ state: inout State, _ lines: Set<SerialLine>, up: Bool, cause: String)
    -> Set<SerialLine>
  {
    var moved: Set<SerialLine> = []
    for line in SerialLine.allCases where lines.contains(line) && state.levels[line] != up {
      state.levels[line] = up
      state.changes.append(Change(line: line, isUp: up, cause: cause))
      moved.insert(line)
    }
    return moved
  }

  /// The far end moves a status line (CTS, DSR, DCD, RI): a key, a sensor.
  public func drive(_ line: SerialLine, up: Bool) {
    state.withLock { state in _ = Self.move(&state, [line], up: up, cause: "wire") }
    wire.withLock { $0.changes += 1 }
    wire.wakeWaiters()
  }

  /// The port goes away: a wait in progress, and every later one, fails with `error`.
  public func vanish(_ error: SerialError) {
    wire.withLock { $0.failure = error }
    wire.wakeWaiters()
  }

  /// Waits until `count` threads wait for a status line to change.
  public func waitUntilWaiting(_ count: Int = 1) {
    wire.wait(until: { $0.waiting >= count }, then: { _ in })
  }

  /// How many times a wait was ended by a wake.
  public var wakes: Int { wire.withLock { $0.wakes } }

  /// Opens it as the kernel would.
  public func open() -> any SerialPortFile & SerialStatusLines {
    state.withLock { state in
      if !state.settings.speedIsZero {
        _ = Self.move(&state, [.dtr, .rts], up: true, cause: "open")
      }
    }
    return Opened(port: self)
  }

  private final class Opened: SerialPortFile, SerialStatusLines {
    let port: SimulatedSerialPort
    let isOpen = Mutex(true)
    init(port: SimulatedSerialPort) { self.port = port }

    func levels() throws(SerialError) -> SerialLevels {
      guard isOpen.withLock({ $0 }) else {
        throw .io(operation: "read", path: "sim", errno: .badFileDescriptor)
      }
      return port.levels
    }

    func set(_ lines: Set<SerialLine>, up: Bool) throws(SerialError) {
      guard isOpen.withLock({ $0 }) else {
        throw .io(operation: "switch", path: "sim", errno: .badFileDescriptor)
      }
      guard !lines.isEmpty else { return }
      port.state.withLock { state in
        state.calls.append(SimulatedSerialPort.move(&state, lines, up: up, cause: "ioctl"))
      }
    }

    func settings() throws(SerialError) -> SerialSettings { port.settings }
    func isExclusive() throws(SerialError) -> Bool { port.isExclusive }

    /// As `TIOCMIWAIT`: until the far end moves a line (any: the fake does not tell them
    /// apart) or a wake; a wake that comes before the wait is lost.
    func waitForChange(of lines: Set<SerialLine>) throws(SerialError) -> Bool {
      let result = port.wire.withLock { wire -> (Int, Int, SerialError?) in
        wire.waiting += 1
        return (wire.changes, wire.wakes, wire.failure)
      }
      port.wire.wakeWaiters()
      let (changes, wakes, failed) = result
      let (changed, failure) = port.wire.wait(
        until: { $0.changes != changes || $0.wakes != wakes || $0.failure != nil || failed != nil },
        then: { wire -> (Bool, SerialError?) in
          wire.waiting -= 1
          return (wire.changes != changes, wire.failure)
        })
      if let failure { throw failure }
      return changed
    }

    func wakeWaiter() {
      port.wire.withLock { wire in
        if wire.waiting > 0 { wire.wakes += 1 }
      }
      port.wire.wakeWaiters()
    }

    func close() {
      guard
        isOpen.withLock({ open in
          defer { open = false }
          return open
        })
      else { return }
      port.state.withLock { state in
        if state.settings.hangsUpOnClose {
          _ = SimulatedSerialPort.move(&state, [.dtr, .rts], up: false, cause: "close")
        }
      }
    }
  }
}
