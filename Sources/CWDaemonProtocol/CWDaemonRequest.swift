/// One datagram to cwdaemon, read as cwdaemon 0.13 reads it: at most `maximumSize` bytes (the
/// rest of a longer one is lost), trailing CR and LF bytes stripped, then a C string (a NUL
/// ends it). An ESC first makes it an escape request (its next byte the code, the rest the
/// value); anything else is text to key.
public enum CWDaemonRequest: Sendable, Equatable {
  /// Text to key (`CWDaemonText`).
  case text(CWDaemonText)
  /// ESC 0: every setting back to the command line's, the queue and a pending reply dropped.
  case reset
  /// ESC 2: the speed, in words per minute (`CWDaemonSettings.speedRange`).
  case speed(Int)
  /// ESC 3: the sidetone's pitch in Hz; 0 silences it.
  case tone(Int)
  /// ESC 4: stop keying at once; a pending reply is answered `break`.
  case abort
  /// ESC 5: exit, status 0.
  case exit
  /// ESC 6: word mode (ESC 4 is ignored until ESC 0).
  case wordMode
  /// ESC 7: the weighting, −50 to 50.
  case weighting(Int)
  /// ESC 8: the keying device (`ttyS0`, `/dev/ttyUSB0`, `null`).
  case device(String)
  /// ESC a: PTT on (true) or off.
  case ptt(Bool)
  /// ESC c: key down for this many seconds (1 to 10; 0 does nothing).
  case tune(Int)
  /// ESC d: the PTT lead time in ms (0 to 50; more is taken as 50); 0: PTT is never keyed.
  case pttDelay(Int)
  /// ESC f: the sound system, by its first letter (`n`ull, `c`onsole, `s`oundcard, `a`lsa,
  /// `p`ulseaudio, `o`ss).
  case soundSystem(Character)
  /// ESC g: the sidetone's volume, 0 to 100 %.
  case volume(Int)
  /// ESC h: reply `h` and this text after the next text has been keyed.
  case reply([UInt8])
  /// ESC b, ESC e, ESC 9 and the like: parallel-port or obsolete requests, accepted and
  /// ignored as cwdaemon ignores them on a serial port.
  case ignored(code: UInt8)
  /// A request cwdaemon ignores (a value out of range, not a number, an unknown code):
  /// logged, nothing else. The reason is worded for the log.
  case invalid(String)
  /// An empty datagram (or only CR/LF): nothing.
  case empty

  /// The most bytes of a datagram read.
  public static let maximumSize = 256

  /// The request `datagram` holds.
  public init(_ datagram: some Collection<UInt8>) {
    var bytes = Array(datagram.prefix(Self.maximumSize))
    while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
    if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
    guard let first = bytes.first else {
      self = .empty
      return
    }
    guard first == 0x1B else {
      self = .text(CWDaemonText(bytes))
      return
    }
    guard bytes.count > 1 else {
      self = .invalid("an escape request with no code")
      return
    }
    self = Self.escape(code: bytes[1], value: Array(bytes.dropFirst(2)))
  }

  private static func escape(code: UInt8, value: [UInt8]) -> CWDaemonRequest {
    let named = Character(Unicode.Scalar(code))
    func number(_ range: ClosedRange<Int>, _ make: (Int) -> CWDaemonRequest) -> CWDaemonRequest {
      guard let number = CWDaemonNumber.parse(value) else {
        return .invalid("ESC \(named): \"\(CWDaemonText.shown(value))\" is no whole number")
      }
      guard range.contains(number) else {
        return .invalid(
          "ESC \(named): \(number) is not from \(range.lowerBound) to \(range.upperBound)")
      }
      return make(number)
    }
    switch named {
    case "0": return .reset
    case "2": return number(CWDaemonSettings.speedRange, CWDaemonRequest.speed)
    case "3": return number(CWDaemonSettings.toneRange, CWDaemonRequest.tone)
    case "4": return .abort
    case "5": return .exit
    case "6": return .wordMode
    case "7": return number(CWDaemonSettings.weightingRange, CWDaemonRequest.weighting)
    case "8":
      guard !value.isEmpty else { return .invalid("ESC 8: no device named") }
      return .device(String(decoding: value, as: UTF8.self))
    case "a": return number(Int.min...Int.max) { .ptt($0 != 0) }
    case "c": return number(0...CWDaemonSettings.longestTune) { CWDaemonRequest.tune($0) }
    case "d":
      // Over the network a lead time over 50 ms is taken as 50 (the command line refuses it).
      return number(0...Int.max) { .pttDelay(min($0, CWDaemonSettings.pttDelayRange.upperBound)) }
    case "f":
      guard let letter = value.first.map({ Character(Unicode.Scalar($0)) }),
        CWDaemonSettings.soundSystems.contains(letter)
      else {
        return .invalid("ESC f: \"\(CWDaemonText.shown(value))\" is no sound system")
      }
      return .soundSystem(letter)
    case "g": return number(CWDaemonSettings.volumeRange, CWDaemonRequest.volume)
    case "h": return .reply(value)
    case "1", "9", "b", "e", "i", "j": return .ignored(code: code)
    default: return .invalid("ESC \(CWDaemonText.shown([code])): no such request")
    }
  }
}

/// A number in a request as cwdaemon reads it (`strtol`, base 10): white space first, then an
/// optional sign and digits, and nothing after them.
public enum CWDaemonNumber {
  /// The number `bytes` hold, or nil (empty, a character after the digits, too large).
  public static func parse(_ bytes: some Collection<UInt8>) -> Int? {
    var rest = bytes.drop { [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains($0) }
    var isNegative = false
    if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      isNegative = sign == UInt8(ascii: "-")
      rest = rest.dropFirst()
    }
    guard !rest.isEmpty else { return nil }
    var value = 0
    for byte in rest {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowSum) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
      guard !overflowTimes, !overflowSum else { return nil }
      value = sum
    }
    return isNegative ? -value : value
  }
}
