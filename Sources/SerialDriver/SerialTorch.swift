import DeviceContract
import Synchronization

/// A serial port's DTR or RTS line keyed as a torch: on is the line's active level (raised,
/// or dropped with `--active-low`). Every other line stays as it was found.
///
/// Claiming puts the lines the port drives back as they were before the open (the kernel
/// raises DTR and RTS when it opens a port whose speed is not 0) with the keyed line
/// inactive; restoring puts the keyed line back as found and closes the port.
public final class SerialTorch: Torch, Sendable {
  private let modem: any SerialModem
  /// The port's device.
  public let path: String
  /// The line keyed.
  public let line: SerialLine
  /// Whether active is the dropped level (reversed wiring).
  public let isActiveLow: Bool
  /// The levels before the open, as far as the kernel's settings tell.
  public let found: SerialLevels
  /// Whether the open raised DTR and RTS (the port's speed was not 0): for as long as the
  /// open took to return and this torch to drop them, they were up.
  public let openRaisedLines: Bool
  private let state = Mutex(State())

  private struct State {
    var isRestored = false
    /// Between `suspend()` and `resume()`: the line is kept inactive.
    var isSuspended = false
    /// The state last asked for.
    var isOn = false
    /// The port's other output line raised as PTT (`setPTT`), and whether it is on.
    var ptt: SerialLine?
    var isPTTOn = false
  }

  /// Takes `modem`'s `line` (an output) as a torch, once its port was opened with
  /// `settings`: the lines it drives go back to what they were before the open, the keyed one
  /// inactive. Throws `notAnOutput` for a line the port reads.
  public init(
    modem: any SerialModem, path: String, line: SerialLine, isActiveLow: Bool,
    settings: SerialSettings
  ) throws(SerialError) {
    guard line.isOutput else { throw .notAnOutput(line, path: path) }
    self.modem = modem
    self.path = path
    self.line = line
    self.isActiveLow = isActiveLow
    let opened = try modem.levels()
    (found, openRaisedLines) = settings.found(afterOpen: opened)
    var wanted = found
    wanted[line] = isActiveLow
    try Self.move(modem, from: opened, to: wanted)
  }

  /// Moves the lines the port drives from `current` to `wanted`: those to drop in one call,
  /// then those to raise in one (lines that move together move at once).
  static func move(
    _ modem: any SerialModem, from current: SerialLevels, to wanted: SerialLevels
  ) throws(SerialError) {
    let outputs = SerialLine.allCases.filter(\.isOutput)
    try modem.set(Set(outputs.filter { current[$0] && !wanted[$0] }), up: false)
    try modem.set(Set(outputs.filter { !current[$0] && wanted[$0] }), up: true)
  }

  /// The level that keys (`isOn`) or does not.
  private func level(_ isOn: Bool) -> Bool { isOn != isActiveLow }

  /// Keys the line or not; does nothing once restored, and only remembers the state while
  /// suspended.
  public func set(_ isOn: Bool) throws(SerialError) {
    try state.withLock { state throws(SerialError) in
      state.isOn = isOn
      if state.isRestored || state.isSuspended { return }
      try modem.set([line], up: level(isOn))
    }
  }

  /// Raises (or drops) `ptt`, the port's other output line, as a transmitter's push-to-talk:
  /// raised is on. `restore` puts it back as found, after the keyed line; while suspended it
  /// is down, and only remembered. Throws `notAnOutput` for a line that is not the other
  /// output.
  public func setPTT(_ isOn: Bool, on ptt: SerialLine) throws(SerialError) {
    guard ptt.isOutput, ptt != line else { throw .notAnOutput(ptt, path: path) }
    try state.withLock { state throws(SerialError) in
      state.ptt = ptt
      state.isPTTOn = isOn
      if state.isRestored || state.isSuspended { return }
      try modem.set([ptt], up: isOn)
    }
  }

  /// Puts the keyed line back as found, then PTT, then closes the port. Idempotent.
  public func restore() throws(SerialError) {
    try state.withLock { state throws(SerialError) in
      if state.isRestored { return }
      state.isRestored = true
      defer { modem.close() }
      try modem.set([line], up: found[line])
      if let ptt = state.ptt { try modem.set([ptt], up: found[ptt]) }
    }
  }

  /// Keeps the line inactive until `resume()` (the port stays open: exclusive, and claimed).
  public func suspend() throws(SerialError) {
    try state.withLock { state throws(SerialError) in
      if state.isRestored || state.isSuspended { return }
      state.isSuspended = true
      try modem.set([line], up: level(false))
      if let ptt = state.ptt, state.isPTTOn { try modem.set([ptt], up: false) }
    }
  }

  /// Keys the line as last asked for.
  public func resume() throws(SerialError) {
    try state.withLock { state throws(SerialError) in
      if state.isRestored || !state.isSuspended { return }
      state.isSuspended = false
      if let ptt = state.ptt, state.isPTTOn { try modem.set([ptt], up: true) }
      try modem.set([line], up: level(state.isOn))
    }
  }
}
