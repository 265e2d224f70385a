import CWDaemonProtocol

/// The options of `cwdaemon`: cwdaemon 0.13's own, letter for letter, then morsetorch's.
enum CWDaemonOption: CommandOption {
  case cwdevice, options, nofork, port, wpm, tone, system, volume, weighting, pttdelay
  case verbosity, priority, libcwflags, debugfile, version
  case listen, led, gpio
  case help

  // One exhaustive switch, a table (a case added is asked for here).
  var spec: OptionSpec {
    switch self {
    case .cwdevice:
      .value(
        "cwdevice", "DEVICE", short: "d", completion: .devices(.serialPort),
        help: "key this serial port (ttyS0, /dev/ttyUSB0) or null"
      ).detailed(
        "Default null: nothing keyed but --led and --gpio. A port with no modem lines (a pty) is\n"
          + "used as null, with a warning, as cwdaemon does.")
    case .options:
      .value(
        "options", "key=L|ptt=L", short: "o", isRepeatable: true,
        help: "the port's lines: key=dtr|rts|none, ptt=rts|dtr|none"
      ).detailed("Default key=dtr, ptt=rts; the two may not be the same line.")
    case .nofork:
      .flag("nofork", short: "n", help: "stay in the foreground, logging to standard error")
        .detailed("Without it the daemon goes on in the background once it listens.")
    case .port:
      .value(
        "port", "PORT", short: "p",
        help: "the UDP port, \(CWDaemonPlan.portRange.lowerBound)-"
          + "\(CWDaemonPlan.portRange.upperBound) (default \(CWDaemonPlan.defaultPort))")
    case .wpm:
      .value(
        "wpm", "WPM", short: "s",
        help: "speed, \(CWDaemonSettings.speedRange.lowerBound)-"
          + "\(CWDaemonSettings.speedRange.upperBound) (default \(CWDaemonSettings().speed))")
    case .tone:
      .value(
        "tone", "HZ", short: "T",
        help: "sidetone pitch, 0-4000, 0 for none (default \(CWDaemonSettings().tone))"
      ).detailed(
        "Played at \(SendPlan.toneRange.lowerBound) Hz at least, as send --tone.")
    case .system:
      .value(
        "system", "SOUND", short: "x", completion: .words(["n", "c", "s", "a", "p", "o"]),
        help: "sidetone: s, a, p or o through aplay; n or c none"
      ).detailed(
        "Default n. s (soundcard), a (ALSA), p (PulseAudio) and o (OSS) all play on the system's\n"
          + "default device through aplay, in step with the key; c (cwdaemon's console buzzer) plays\n"
          + "nothing.")
    case .volume:
      .value("volume", "PERCENT", short: "v", help: "sidetone volume, 0-100; accepted, unused")
    case .weighting:
      .value(
        "weighting", "W", short: "w", help: "-50 to 50: marks longer, gaps shorter (default 0)")
    case .pttdelay:
      .value(
        "pttdelay", "MS", short: "t", help: "PTT lead time, 0-50 ms (default 0: no PTT)"
      ).detailed(
        "Over 0, the port's PTT line (-o ptt=, default RTS) is raised that long before each\n"
          + "request's first mark and dropped after its last.")
    case .verbosity:
      .value(
        "verbosity", "LEVEL", short: "y", completion: .words(["n", "e", "w", "i", "d"]),
        help: "what the log says: n(one) e(rrors) w(arnings) i(nfo) d(ebug)"
      ).detailed("Default w.")
    case .priority:
      .value("priority", "N", short: "P", help: "cwdaemon's nice value; accepted, unused")
    case .libcwflags:
      .value("libcwflags", "N", short: "I", help: "libcw's debug flags; accepted, unused")
    case .debugfile:
      .value(
        "debugfile", "FILE", short: "f", help: "stdout or stderr, accepted; the log is on stderr")
    case .version: .flag("version", short: "V", help: "print the version")
    case .listen:
      .value(
        "listen", "ADDRESS",
        help: "the IPv4 address to listen on (default 127.0.0.1)"
      ).detailed(
        "0.0.0.0 listens on every network: anyone who can reach the port can key the radio.")
    case .led:
      .value(
        "led", "NAME", completion: .devices(.led), isRepeatable: true,
        help: "key this LED too (or instead, with -d null)")
    case .gpio:
      .value(
        "gpio", "CHIP:LINE", completion: .devices(.gpioLine), isRepeatable: true,
        help: "key this GPIO line too")
    case .help: .help
    }
  }
}
