extension OptionSpec {
  /// `--skip-unknown` of `send` and `encode`.
  static let skipUnknown = flag(
    "skip-unknown",
    help: "drop characters without a Morse signal (with a warning) instead of failing")

  /// `--alphabet NAME` of `decode` and `receive`.
  static let alphabet = value(
    "alphabet", "NAME", completion: .words(["latin", "cyrillic", "russian", "greek"]),
    help: "read letters as latin (default), cyrillic (russian) or greek")
}

extension OptionSpec {
  /// An option of a command that does not declare its options as an enum yet.
  init(name: String, shortName: Character?, valueName: String?, help: String) {
    let completion: CompletionKind =
      switch (name, valueName) {
      case ("led", _): .leds
      case ("gpio", .some): .gpioChips
      case ("edges", .some): .files
      case ("bias", _): .words(["pull-up", "pull-down", "disabled"])
      case ("alphabet", _): .words(["latin", "cyrillic", "russian", "greek"])
      case ("completions", _): .words(["bash", "zsh", "fish"])
      default: .none
      }
    self.init(
      name: name, shortName: shortName, kind: valueName.map { .value(placeholder: $0) } ?? .flag,
      help: help, completion: completion, isRepeatable: ["led", "gpio"].contains(name))
  }
}

/// The options of each command, in the order `--help` lists them.
enum Options {
  static let help = OptionSpec.help
  static let skipUnknown = OptionSpec.skipUnknown
  static let alphabetOption = OptionSpec.alphabet

  static let send: [OptionSpec] = [
    OptionSpec(
      name: "led", shortName: nil, valueName: "NAME",
      help: "the LED to use (default: $MORSETORCH_LED, else automatic); repeat it\n"
        + "or give a shell-style pattern ('*::capslock') for several LEDs at once\n"
        + "(up to \(DeviceNames.limit))"),
    OptionSpec(
      name: "gpio", shortName: nil, valueName: "CHIP:LINE",
      help: "send on a GPIO line instead (gpiochip0:17, LABEL:GPIO17); repeatable,\n"
        + "up to \(DeviceNames.limit)"),
    OptionSpec(
      name: "active-low", shortName: nil, valueName: nil,
      help: "with --gpio: the line is active (on) at the low level"),
    OptionSpec(
      name: "bias", shortName: nil, valueName: "BIAS",
      help: "with --gpio: pull-up, pull-down or disabled (where the driver can)"),
    OptionSpec(
      name: "wpm", shortName: nil, valueName: "N",
      help: "speed in words per minute, 1-200 (default 12: a 100 ms dot)"),
    OptionSpec(
      name: "unit", shortName: nil, valueName: "MS",
      help: "the dot length in milliseconds, 1-10000, instead of --wpm"),
    OptionSpec(
      name: "farnsworth", shortName: nil, valueName: "WPM",
      help: "overall speed: stretch letter and word gaps, characters stay at --wpm"),
    OptionSpec(
      name: "brightness", shortName: nil, valueName: "N|P%",
      help: "how bright \"on\" is: a value up to max_brightness, or a percentage"),
    skipUnknown,
    OptionSpec(
      name: "repeat", shortName: nil, valueName: "N",
      help: "send TEXT N times (1-1000000), a --pause apart"),
    OptionSpec(
      name: "loop", shortName: nil, valueName: nil,
      help: "send TEXT again and again until stopped (a rerun, stop, a signal)"),
    OptionSpec(
      name: "pause", shortName: nil, valueName: "TIME",
      help: "between repeats: 2s, 1.5s, 1m; a word gap (the default) at least, so each\n"
        + "round stays a word of its own"),
    OptionSpec(
      name: "replace", shortName: nil, valueName: nil,
      help: "if the LED is busy, cancel that transmission and send this one"),
    OptionSpec(
      name: "wait", shortName: nil, valueName: nil,
      help: "if the LED is busy, wait for it (first come, first served), then send"),
    OptionSpec(name: "queue", shortName: nil, valueName: nil, help: "the same as --wait"),
    OptionSpec(
      name: "detach", shortName: nil, valueName: nil,
      help: "go on in the background once the LED is ours (needs TEXT); what it says\n"
        + "later goes to the system log (journalctl -t morsetorch)"),
    OptionSpec(
      name: "echo", shortName: nil, valueName: nil,
      help: "print each character to standard output as it finishes (a line per message)"),
    OptionSpec(
      name: "quiet", shortName: "q", valueName: nil,
      help: "no progress line and no notes (errors and warnings still show)"),
    OptionSpec(
      name: "dry-run", shortName: nil, valueName: nil,
      help: "print the step timeline at once and touch no LED"),
    OptionSpec(
      name: "edges", shortName: nil, valueName: nil,
      help: "with --dry-run: print the edges instead, as `receive --edges` reads them"),
    OptionSpec(
      name: "preview", shortName: nil, valueName: nil,
      help: "show the light in this terminal, in real time, instead of on an LED"),
    help,
  ]
  static let global: [OptionSpec] = [
    help, OptionSpec(name: "version", shortName: nil, valueName: nil, help: "print the version"),
  ]
}
