import DeviceContract
import LEDDriver
import LinuxSystem
import TransmitterControl

/// LEDs of the LED class, as the tool handles them: `--led NAME`, restored from a record by
/// name, and what their errors mean (`report`).
struct LEDHome: DeviceHome {
  /// The LED's name.
  let name: String

  static let noun = "LED"
  static let nounPlural = "LEDs"
  static let restoredPhrase = "restored"
  /// Group `leds` switches every LED and puts its trigger's settings back: the package's
  /// rule gives it every writable file of an LED and one directory below it (power/ and
  /// uevent left alone), at the LED's arrival and at each trigger change.
  static let access = DeviceAccess(
    group: "leds", devices: "LEDs", use: "switch LEDs",
    rule: #"ACTION=="add|change", SUBSYSTEM=="leds", RUN+="/usr/bin/find /sys%p/ -mindepth 1 "#
      + #"-maxdepth 2 ( -name power -o -name uevent ) -prune -o -type f -perm -200 "#
      + #"-exec chgrp leds {} + -exec chmod g+w {} +""#,
    triggerMatch: "--action=add --subsystem-match=leds")

  static let sendOption = SendOption.led
  static let sendOnlyOptions = [SendOption.brightness]

  static func sendChoice(_ arguments: ParsedArguments<SendOption>) throws -> any SendChoice {
    LEDSendChoice(
      words: arguments.all(.led), brightness: try SendPlan.brightness(arguments.value(.brightness)))
  }

  /// The names under the class directory (in fish, each with its trigger and brightness).
  static let completion = DeviceCompletion(
    function: "leds",
    bash: [
      "  _morsetorch_reply \"$(ls -1 \"${MORSETORCH_LEDS_DIR:-/sys/class/leds}\" 2>/dev/null)\""
    ],
    zsh: [
      "  local -a leds",
      "  leds=(${MORSETORCH_LEDS_DIR:-/sys/class/leds}/*(N:t))",
      "  compadd -a leds",
    ],
    fish: [
      "  set -l directory /sys/class/leds",
      "  set -q MORSETORCH_LEDS_DIR; and test -n \"$MORSETORCH_LEDS_DIR\"; and set directory $MORSETORCH_LEDS_DIR",
      // Each name with what `list` says of it, after a tab: fish's own description of a
      // candidate, which it shows instead of the option's. Read with builtins only (a
      // process an attribute would be slow where there are many LEDs).
      "  for led in $directory/*",
      "    set -l said",
      "    for attribute in trigger brightness max_brightness",
      "      set -l value '?'",
      "      test -r $led/$attribute; and read -l line <$led/$attribute; and set value $line",
      #"      test $attribute = trigger; and set value (string match -r -g '\[([^]]*)\]' -- $value; or echo '?')"#,
      "      set -a said $value",
      "    end",
      #"    printf '%s\ttrigger %s, brightness %s/%s\n' (string replace -r '.*/' '' -- $led) $said"#,
      "  end",
    ])

  static let listOption: OptionSpec? = nil

  static func list(environment: ProcessEnvironment) throws -> Int32 {
    let directory = LEDClassDirectory(environment: environment.variables)
    let leds: [LEDInfo]
    do {
      leds = try directory.list()
    } catch {
      guard error.isNoLED else { throw error }
      throw HintedError(error: error, hint: tryWithoutLED)
    }
    guard !leds.isEmpty else {
      // As with no class directory at all, and as `list --gpio` with no chip: nothing to use.
      Console.error("no LEDs under \(directory.path)\n" + tryWithoutLED)
      return ExitStatus.unavailable
    }
    LEDTable.lines(for: leds).forEach(Console.output)
    return ExitStatus.success
  }

  /// Where there is no LED: the ways to try the tool all the same.
  static let tryWithoutLED =
    "Without an LED, `morsetorch send --preview SOS` shows the light in this terminal and "
    + "`morsetorch send --dry-run SOS` prints its timeline; `morsetorch list --gpio` shows "
    + "the GPIO lines."

  static let controlOption = OptionSpec.value(
    "led", "NAME", completion: .devices(.led), isRepeatable: true,
    help: "only this LED (default: every LED); repeatable"
  ).detailed("Or a shell-style pattern like '*::capslock'.")

  /// Any word will do until it is looked at: a name, or a pattern.
  static func check(controlWords words: [String]) {}

  /// The LEDs `words` name: each a name, or a shell-style pattern matched against the LEDs
  /// the runtime directory knows (those that are or were sent on). Sorted, without repeats.
  static func chosen(
    _ words: [String], runtime: RuntimeDirectory, environment: ProcessEnvironment
  ) throws -> [DeviceID] {
    let known = try Transmissions.devices(in: runtime).compactMap { device -> String? in
      if case .led(let name) = device { return name }
      return nil
    }
    var chosen = Set<String>()
    for request in words {
      if NamePattern.isPattern(request) && !known.contains(request) {
        chosen.formUnion(known.filter(NamePattern(request).matches))
        continue
      }
      guard LEDClassDirectory.isValidName(request) else { throw LEDError.invalidName(request) }
      // A name that is neither an LED nor known to the runtime directory is a typo, not an
      // idle LED: say so, with the LEDs that exist.
      if !known.contains(request),
        case .none = Transmissions.record(of: .led(request), in: runtime)
      {
        _ = try LEDClassDirectory(environment: environment.variables).led(named: request)
      }
      chosen.insert(request)
    }
    return chosen.sorted().map { .led($0) }
  }

  static func naming(controlWords words: [String]) -> String {
    DeviceNames.naming(words.map { DeviceID.led($0) })
  }

  func exists(environment: ProcessEnvironment) -> Bool {
    (try? LEDClassDirectory(environment: environment.variables).led(named: name)) != nil
  }

  /// The LED by its name, if it is there.
  func driver(record: TransmissionRecord, environment: ProcessEnvironment) throws
    -> (any TorchDevice)?
  {
    guard let led = try? LEDClassDirectory(environment: environment.variables).led(named: name)
    else { return nil }
    return LEDDevice(led: led)
  }

  /// What an LED error says, with the way out, and the status to exit with.
  static func report(_ error: LEDError) -> (message: String, status: Int32) {
    switch error {
    case .invalidName:
      return (error.description + " Run `morsetorch list` to see the LEDs.", ExitStatus.usage)
    case .ledNotFound, .noMatch:
      return (error.description + " Run `morsetorch list` for details.", ExitStatus.unavailable)
    case .classDirectoryMissing, .noLEDs, .vanished, .malformed:
      return (error.description, ExitStatus.unavailable)
    case .permissionDenied(let path, let errno):
      return PermissionAdvice.report(error.description, access, path: path, errno: errno)
    case .busy:
      return (error.description, ExitStatus.temporaryFailure)
    case .io:
      return (error.description, ExitStatus.ioError)
    }
  }

  /// The warnings a claim of `torch` (LEDs switched at `brightness`) gives: a brightness over
  /// an LED's maximum is that maximum, said as the value asked is not used.
  static func claimWarnings(_ torch: any Torch, brightness: BrightnessSetting) -> [String] {
    guard case .value(let asked) = brightness else { return [] }
    return sysfsTorches(torch).filter { asked > $0.maxBrightness }.map { torch in
      "warning: --brightness \(asked) is over the max_brightness of LED \(torch.led.name), "
        + "\(torch.maxBrightness): \(torch.maxBrightness) used"
    }
  }

  /// The LEDs' torches among `torch` (a group's members).
  private static func sysfsTorches(_ torch: any Torch) -> [SysfsTorch] {
    let members = (torch as? TorchGroup)?.members ?? [torch]
    return members.compactMap { $0 as? SysfsTorch }
  }
}

extension LEDError: DeviceFailure {
  var ioErrno: Errno? { if case .io(_, _, let errno) = self { errno } else { nil } }
  var hasVanished: Bool { if case .vanished = self { true } else { false } }
}
