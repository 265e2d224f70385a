import MorseCore

/// Hears of a transmission as it goes: the record `status` reads, a preview, a dry run's
/// timeline, warnings about skipped characters.
///
/// Called on the transmitting thread: an observer must return at once (hand the work to a
/// thread of its own if it writes anywhere that may block).
public protocol TransmissionObserver: AnyObject {
  /// A step just began.
  func transmission(didBegin progress: Transmitter.Progress)
  /// A line of streamed input was validated and is about to be sent; the message lists the
  /// characters skipped by `UnknownCharacterPolicy.skip`. (A message given whole to
  /// `Transmitter.send(_:)` was validated by the caller, who has it.)
  func transmission(willSendLine message: MorseMessage, number: Int)
  /// Streamed input: a terminal control sequence of `kind` in line `line` ran longer than
  /// its limit (`ControlSequenceFilter.limit(of:)`); it is dropped all the same, to its end
  /// (or, a control string, to the end of its line).
  func transmission(droppedOverlong kind: ControlSequenceKind, line: Int)
  /// Streamed input: the transmitter is idle, waiting for input line `line` (1-based) to
  /// arrive; the next step that begins ends the wait.
  func transmissionIsWaitingForInput(line: Int)
  /// A message (a round of a repeated one, or a line of input) was sent to its end: its last
  /// element just ended.
  func transmissionDidFinishMessage(line: Int, round: Int)
}

extension TransmissionObserver {
  /// Ignores the message.
  public func transmission(willSendLine message: MorseMessage, number: Int) {}
  /// Ignores the sequence.
  public func transmission(droppedOverlong kind: ControlSequenceKind, line: Int) {}
  /// Ignores the wait.
  public func transmissionIsWaitingForInput(line: Int) {}
  /// Ignores the end.
  public func transmissionDidFinishMessage(line: Int, round: Int) {}
}
