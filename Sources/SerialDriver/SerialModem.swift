/// A serial port's modem lines, as the torch switches them: the open port, or a fake in the
/// tests.
public protocol SerialModem: AnyObject, Sendable {
  /// The levels of all the lines now.
  func levels() throws(SerialError) -> SerialLevels
  /// Raises (`up`) or drops the lines `lines`, leaving every other line as it is.
  func set(_ lines: Set<SerialLine>, up: Bool) throws(SerialError)
  /// Closes the port: the kernel then drops DTR and RTS if the port's HUPCL is set.
  func close()
}

/// What the kernel keeps of a port between opens that decides what opening and closing do to
/// DTR and RTS (`tty_port_block_til_ready` and `tty_port_close` in the kernel): an open raises
/// both unless the port's speed is 0 (B0, "hang up"); a close drops both if HUPCL is set.
/// The kernel keeps a port's settings from one open to the next, until the port goes away.
public struct SerialSettings: Sendable, Hashable {
  /// Whether the speed is 0: an open then leaves DTR and RTS alone.
  public let speedIsZero: Bool
  /// Whether HUPCL is set: a close then drops DTR and RTS.
  public let hangsUpOnClose: Bool

  public init(speedIsZero: Bool, hangsUpOnClose: Bool) {
    self.speedIsZero = speedIsZero
    self.hangsUpOnClose = hangsUpOnClose
  }

  /// The levels the lines had before the open that left them at `opened`: the same where the
  /// speed is 0. Otherwise the open raised DTR and RTS; before it they were down: dropped by
  /// the last close (HUPCL, the kernel's default), or never raised since the port appeared.
  /// (Where HUPCL was cleared and a program left a line up, it was up: this reads it down,
  /// and the restore drops it; `raisedByOpen` says the open moved them.)
  public func found(afterOpen opened: SerialLevels) -> (levels: SerialLevels, raisedByOpen: Bool) {
    guard !speedIsZero else { return (opened, false) }
    var found = opened
    for line in SerialLine.allCases where line.isOutput { found[line] = false }
    return (found, true)
  }
}
