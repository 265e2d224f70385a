import MorseSound

/// The options of `send`, in the order `--help` lists them.
enum SendOption: CommandOption {
  case led, gpio, serial, sound, activeLow, bias, wpm, unit, farnsworth, brightness, skipUnknown
  case `repeat`, loop, pause, replace, wait, queue, detach, echo, quiet, dryRun, edges, wav, tone,
    preview
  case help

  // One exhaustive switch, a table: over 60 lines, as tables may be (a case added is asked
  // for here).
  var spec: OptionSpec {
    switch self {
    case .led:
      .value(
        "led", "NAME", completion: .devices(.led), isRepeatable: true,
        help: "the LED to use; repeatable, or a pattern ('*::capslock')"
      ).detailed(
        "Default: $MORSETORCH_LED, else automatic. Repeat it or give a shell-style pattern\n"
          + "for several LEDs at once (up to \(DeviceNames.limit)).")
    case .gpio:
      .value(
        "gpio", "CHIP:LINE", completion: .devices(.gpioLine), isRepeatable: true,
        help: "send on a GPIO line instead (gpiochip0:17); repeatable"
      ).detailed("CHIP:LINE as gpiochip0:17 or LABEL:GPIO17; up to \(DeviceNames.limit) lines.")
    case .serial:
      .value(
        "serial", "PORT[:LINE]", completion: .devices(.serialPort), isRepeatable: true,
        help: "key a serial port's DTR (or :rts) instead"
      ).detailed(
        "PORT as /dev/ttyUSB0, ttyUSB0 or /dev/serial/by-id/NAME; LINE dtr or rts.")
    case .sound:
      .optionalValue(
        "sound", "DEVICE", completion: .devices(.sound),
        help: "play it as a tone (with an LED too: in step)"
      ).detailed(
        "Through aplay; DEVICE as `aplay -L` names it, default the system's own; --tone HZ.")
    case .activeLow:
      .flag(
        "active-low", help: "with --gpio or --serial: active (on) is the low level")
    case .bias:
      .value(
        "bias", "BIAS", completion: GPIOChoice.biasCompletion,
        help: "with --gpio: pull-up, pull-down or disabled"
      ).detailed("Where the driver can.")
    case .wpm:
      .value("wpm", "N", help: "speed in words per minute, 1-200 (default 12)")
        .detailed("The default, 12, is a 100 ms dot.")
    case .unit:
      .value("unit", "MS", help: "the dot length in ms, 1-10000, instead of --wpm")
        .detailed("MS is in milliseconds.")
    case .farnsworth:
      .value(
        "farnsworth", "WPM",
        help: "overall speed: letter and word gaps are stretched"
      ).detailed("The characters stay at --wpm.")
    case .brightness:
      .value(
        "brightness", "N|P%",
        help: "how bright \"on\" is: up to max_brightness, or a percent"
      ).detailed("A value above max_brightness is that, with a warning.")
    case .skipUnknown: .skipUnknown
    case .repeat: .value("repeat", "N", help: "send TEXT N times (1-1000000), a --pause apart")
    case .loop:
      .flag("loop", help: "send TEXT again and again until stopped")
        .detailed("By a rerun, stop or a signal.")
    case .pause:
      .value(
        "pause", "TIME",
        help: "between repeats: 2s, 1.5s, 1m (default: a word gap)"
      ).detailed("A word gap at least, so each round stays a word of its own.")
    case .replace:
      .flag("replace", help: "if busy, cancel that transmission and send this one")
    case .wait:
      .flag("wait", help: "if busy, wait for it (first come, first served)")
        .detailed("Then send.")
    case .queue: .flag("queue", help: "the same as --wait")
    case .detach:
      .flag(
        "detach",
        help: "go on in the background once the LED is ours"
      ).detailed(
        "Needs TEXT; what it says later goes to the system log (journalctl -t morsetorch).")
    case .echo:
      .flag(
        "echo",
        help: "print each character to standard output as it ends"
      ).detailed("A line per message.")
    case .quiet:
      .flag(
        "quiet", short: "q", help: "no progress line and no notes"
      ).detailed("Errors and warnings still show.")
    case .dryRun:
      .flag("dry-run", help: "print the step timeline at once and touch no LED").detailed(
        "Each step's start and length in ms; the last line the total, in hours, minutes and "
          + "seconds too (total 270000 ms (4 min 30 s) in 17 steps).")
    case .edges:
      .flag(
        "edges", help: "with --dry-run: print the edges instead of the steps"
      ).detailed("In the form `receive --edges` reads.")
    case .wav:
      .value(
        "wav", "FILE", completion: .files,
        help: "with --dry-run: write the sound as a WAV file (- stdout)"
      ).detailed(
        "16-bit mono, \(ToneSynthesizer.Settings().sampleRate) samples a second, each edge "
          + "shaped over \(Int(ToneSynthesizer.Settings().ramp * 1000)) ms, with a second of\n"
          + "silence (or a word gap) before and after; written at once, - to standard output.")
    case .tone:
      .value(
        "tone", "HZ",
        help: "with --sound or --wav: the pitch, \(SendPlan.toneRange.lowerBound)-"
          + "\(SendPlan.toneRange.upperBound) (default \(SendPlan.defaultTone))")
    case .preview:
      .flag("preview", help: "show the light in this terminal instead of on an LED")
        .detailed("In real time.")
    case .help: .help
    }
  }
}
