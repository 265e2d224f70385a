import CWDaemonProtocol
import LinuxSystem
import SerialDriver

/// What `cwdaemon` was asked to do, every option checked as cwdaemon checks it.
struct CWDaemonPlan: CommandPlan {
  /// The ports cwdaemon accepts: none of the privileged ones.
  static let portRange = 1_024...65_535
  /// cwdaemon's port.
  static let defaultPort = 6_789

  /// How much the log says, least first.
  enum Verbosity: Int, Comparable, Sendable {
    case none, errors, warnings, info, debug

    static func < (left: Verbosity, right: Verbosity) -> Bool { left.rawValue < right.rawValue }
  }

  /// Where it listens.
  let address: InternetAddress
  /// `-n`.
  let staysInForeground: Bool
  /// The settings ESC 0 goes back to.
  let settings: CWDaemonSettings
  /// `-d`: the device as named (`null`, `ttyS0`).
  let device: String
  /// `-o key=`: the line keyed on a serial port, nil for none.
  let keyLine: String?
  /// `-o ptt=`: the serial port's line raised as PTT, nil for none.
  let pttLine: SerialLine?
  /// `--led`, `--gpio`: morsetorch's devices keyed with it, as `send` names them.
  let otherDevices: [String]
  /// `-y`.
  let verbosity: Verbosity
  /// `-V`.
  let showsVersion: Bool

  init(_ arguments: ParsedArguments<CWDaemonOption>) throws {
    try arguments.checkNoOperands()
    showsVersion = arguments.has(.version)
    staysInForeground = arguments.has(.nofork)
    let port = try Self.number(arguments, .port, in: Self.portRange) ?? Self.defaultPort
    let host = arguments.value(.listen) ?? "127.0.0.1"
    guard let address = InternetAddress(host, port: UInt16(port)) else {
      throw UsageError.invalidValue(
        option: CWDaemonOption.listen.flag, value: host,
        expected: "an IPv4 address such as 127.0.0.1 or 0.0.0.0")
    }
    self.address = address
    var settings = CWDaemonSettings()
    settings.speed =
      try Self.number(arguments, .wpm, in: CWDaemonSettings.speedRange) ?? settings.speed
    settings.tone =
      try Self.number(arguments, .tone, in: CWDaemonSettings.toneRange) ?? settings.tone
    settings.volume =
      try Self.number(arguments, .volume, in: CWDaemonSettings.volumeRange) ?? settings.volume
    settings.weighting =
      try Self.number(arguments, .weighting, in: CWDaemonSettings.weightingRange)
      ?? settings.weighting
    settings.pttDelay =
      try Self.number(arguments, .pttdelay, in: CWDaemonSettings.pttDelayRange) ?? settings.pttDelay
    _ = try Self.number(arguments, .priority, in: -20...20)
    _ = try Self.number(arguments, .libcwflags, in: 0...Int(Int32.max))
    if let system = arguments.value(.system) {
      guard let letter = system.first, CWDaemonSettings.soundSystems.contains(letter) else {
        throw UsageError.invalidValue(
          option: CWDaemonOption.system.flag, value: system,
          expected: "n(ull), c(onsole), s(oundcard), a(lsa), p(ulseaudio) or o(ss)")
      }
      settings.soundSystem = letter
    }
    self.settings = settings
    device = arguments.value(.cwdevice) ?? "null"
    if device.isEmpty {
      throw UsageError.invalidValue(
        option: CWDaemonOption.cwdevice.flag, value: device, expected: "a serial port or null")
    }
    let lines = try Self.lines(arguments.all(.options))
    keyLine = lines.key
    pttLine = lines.ptt.flatMap { SerialLine(rawValue: $0) }
    otherDevices =
      arguments.all(.led).flatMap { ["--led", $0] }
      + arguments.all(.gpio).flatMap { ["--gpio", $0] }
    verbosity = try Self.verbosity(arguments.value(.verbosity))
    if let file = arguments.value(.debugfile), !["stdout", "stderr"].contains(file) {
      throw UsageError.invalidValue(
        option: CWDaemonOption.debugfile.flag, value: file, expected: "stdout or stderr")
    }
  }

  /// The whole number `option` was given, checked against `range`; nil if not given.
  private static func number(
    _ arguments: ParsedArguments<CWDaemonOption>, _ option: CWDaemonOption,
    in range: ClosedRange<Int>
  ) throws(UsageError) -> Int? {
    guard let text = arguments.value(option) else { return nil }
    let expected = "a whole number from \(range.lowerBound) to \(range.upperBound)"
    guard let value = CWDaemonNumber.parse(Array(text.utf8)), range.contains(value) else {
      throw .invalidValue(option: option.flag, value: text, expected: expected)
    }
    return value
  }

  /// `-o key=L` and `-o ptt=L`: the key line and the PTT line (nil: none), lower case.
  private static func lines(_ words: [String]) throws(UsageError) -> (key: String?, ptt: String?) {
    var key: String? = "dtr"
    var ptt: String? = "rts"
    for word in words {
      let parts = word.lowercased().split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, ["key", "ptt"].contains(parts[0]),
        ["dtr", "rts", "none"].contains(parts[1])
      else {
        throw .invalidValue(
          option: CWDaemonOption.options.flag, value: word,
          expected: "key=dtr, key=rts, key=none, ptt=rts, ptt=dtr or ptt=none")
      }
      let line = parts[1] == "none" ? nil : parts[1]
      if parts[0] == "key" { key = line } else { ptt = line }
    }
    if let key, key == ptt {
      throw .invalidValue(
        option: CWDaemonOption.options.flag, value: "key=\(key) ptt=\(key)",
        expected: "the key and PTT on different lines (or one of them none)")
    }
    return (key, ptt)
  }

  /// `-y LEVEL`: its first letter.
  private static func verbosity(_ text: String?) throws(UsageError) -> Verbosity {
    guard let text else { return .warnings }
    switch text.first {
    case "n": return .none
    case "e": return .errors
    case "w": return .warnings
    case "i": return .info
    case "d": return .debug
    default:
      throw .invalidValue(
        option: CWDaemonOption.verbosity.flag, value: text,
        expected: "n (none), e (errors), w (warnings), i (info) or d (debug)")
    }
  }

  /// How `send` names the devices to key for `device` (ESC 8 or `-d`): a serial port's line,
  /// then the LEDs and GPIO lines; none for `null` (or `-o key=none`).
  func sendWords(device: String) -> [String] {
    guard device != "null", let keyLine else { return otherDevices }
    let path = device.hasPrefix("/") ? device : "/dev/" + device
    return ["--serial", path + ":" + keyLine] + otherDevices
  }
}
