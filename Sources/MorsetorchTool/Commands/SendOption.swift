/// The options of `send`, in the order `--help` lists them.
enum SendOption: CommandOption {
  case led, gpio, activeLow, bias, wpm, unit, farnsworth, brightness, skipUnknown
  case `repeat`, loop, pause, replace, wait, queue, detach, echo, quiet, dryRun, edges, preview
  case help

  var spec: OptionSpec {
    switch self {
    case .led:
      .value(
        "led", "NAME", completion: .leds, isRepeatable: true,
        help: "the LED to use (default: $MORSETORCH_LED, else automatic); repeat it\n"
          + "or give a shell-style pattern ('*::capslock') for several LEDs at once\n"
          + "(up to \(DeviceNames.limit))")
    case .gpio:
      .value(
        "gpio", "CHIP:LINE", completion: .gpioChips, isRepeatable: true,
        help: "send on a GPIO line instead (gpiochip0:17, LABEL:GPIO17); repeatable,\n"
          + "up to \(DeviceNames.limit)")
    case .activeLow:
      .flag("active-low", help: "with --gpio: the line is active (on) at the low level")
    case .bias:
      .value(
        "bias", "BIAS", completion: GPIOChoice.biasCompletion,
        help: "with --gpio: pull-up, pull-down or disabled (where the driver can)")
    case .wpm:
      .value("wpm", "N", help: "speed in words per minute, 1-200 (default 12: a 100 ms dot)")
    case .unit:
      .value("unit", "MS", help: "the dot length in milliseconds, 1-10000, instead of --wpm")
    case .farnsworth:
      .value(
        "farnsworth", "WPM",
        help: "overall speed: stretch letter and word gaps, characters stay at --wpm")
    case .brightness:
      .value(
        "brightness", "N|P%",
        help: "how bright \"on\" is: a value up to max_brightness (more is that, with a "
          + "warning), or a percentage")
    case .skipUnknown: .skipUnknown
    case .repeat: .value("repeat", "N", help: "send TEXT N times (1-1000000), a --pause apart")
    case .loop:
      .flag("loop", help: "send TEXT again and again until stopped (a rerun, stop, a signal)")
    case .pause:
      .value(
        "pause", "TIME",
        help: "between repeats: 2s, 1.5s, 1m; a word gap (the default) at least, so each\n"
          + "round stays a word of its own")
    default: behaviourSpec
    }
  }

  /// The specs of the flags from `--replace` on: what to do when busy, and how to show it.
  private var behaviourSpec: OptionSpec {
    switch self {
    case .replace:
      .flag("replace", help: "if the LED is busy, cancel that transmission and send this one")
    case .wait:
      .flag("wait", help: "if the LED is busy, wait for it (first come, first served), then send")
    case .queue: .flag("queue", help: "the same as --wait")
    case .detach:
      .flag(
        "detach",
        help: "go on in the background once the LED is ours (needs TEXT); what it says\n"
          + "later goes to the system log (journalctl -t morsetorch)")
    case .echo:
      .flag(
        "echo",
        help: "print each character to standard output as it finishes (a line per message)")
    case .quiet:
      .flag(
        "quiet", short: "q", help: "no progress line and no notes (errors and warnings still show)")
    case .dryRun: .flag("dry-run", help: "print the step timeline at once and touch no LED")
    case .edges:
      .flag(
        "edges", help: "with --dry-run: print the edges instead, as `receive --edges` reads them")
    case .preview:
      .flag("preview", help: "show the light in this terminal, in real time, instead of on an LED")
    // `.help`. (A case forgotten in both switches would be a second --help: HelpTests says so.)
    default: .help
    }
  }
}
