import DeviceContract
import LEDDriver
import MorsePlayer

/// `--led NAME` (repeatable, or a pattern) with `--brightness`: the LEDs to send on; with
/// none named, `$MORSETORCH_LED`'s, or one chosen automatically.
struct LEDSendChoice: SendChoice {
  /// The names and patterns given, as given.
  let words: [String]
  /// `--brightness`.
  let brightness: BrightnessSetting

  /// The LEDs chosen, checked writable: every one before any is reserved (a refused LED must
  /// leave none claimed, no record). Nil when there is none, nobody named one and someone is
  /// watching the terminal.
  func devices(environment: ProcessEnvironment) throws -> [any TorchDevice]? {
    guard let leds = try chooseLEDs(words, environment: environment) else { return nil }
    let option = words.isEmpty ? LEDVariableError.variable : SendOption.led.flag
    try DeviceNames.checkLimit(leds.count, devices: "LEDs", option: option)
    let devices = leds.map { LEDDevice(led: $0, brightness: brightness) }
    for device in devices { try device.checkWritable() }
    return devices
  }

  func claimWarnings(_ torch: any Torch) -> [String] {
    LEDHome.claimWarnings(torch, brightness: brightness)
  }

  /// The LEDs to send on: those `--led` names, `options` (each a name or a pattern, see
  /// `LEDClassDirectory.leds(matching:)`), else `MORSETORCH_LED`'s, else one chosen
  /// automatically. Nil when there is no LED at all, nobody named one and someone is watching
  /// the terminal: the light is shown there instead.
  private func chooseLEDs(_ options: [String], environment: ProcessEnvironment) throws -> [LED]? {
    let directory = LEDClassDirectory(environment: environment.variables)
    let variable = environment[LEDVariableError.variable].flatMap { $0.isEmpty ? nil : $0 }
    do {
      if let requests = options.isEmpty ? variable.map({ [$0] }) : options {
        return try directory.leds(matching: requests)
      }
      let choice = try directory.chooseLED()
      if let note = choice.note { Console.note(note) }
      return [choice.led]
    } catch {
      // The compiler of Swift 6.3 crashes on `catch where` with a typed throw here.
      let ledError: LEDError = error
      if let hint = unescapedInstanceHint(ledError, environment: environment) {
        throw HintedError(error: ledError, hint: hint)
      }
      if options.isEmpty, variable != nil, !ledError.isNoLED {
        throw LEDVariableError(error: ledError)
      }
      guard ledError.isNoLED else { throw ledError }
      // From a script (nobody at the terminal): the error, and the ways to go on without an
      // LED, as `list` gives them.
      guard Console.isErrorTerminal else {
        throw HintedError(error: ledError, hint: LEDHome.tryWithoutLED)
      }
      if options.isEmpty, variable == nil {
        Console.note("no LED here: showing the light in this terminal instead (--preview)")
        return nil
      }
      throw HintedError(
        error: ledError,
        hint: "no LED to send on here: name one with --led NAME (see `morsetorch list`), "
          + "or watch the light in this terminal with `morsetorch send --preview TEXT`")
    }
  }

  /// Under a systemd unit, an LED name with `/`: systemd unescaped the instance name, whose
  /// `-` it reads as `/` (`morsetorch-beacon@platform::mic-mute` gives `platform::mic/mute`).
  private func unescapedInstanceHint(_ error: LEDError, environment: ProcessEnvironment)
    -> String?
  {
    guard case .invalidName(let name) = error, name.contains("/"),
      let service = environment[SendCommand.serviceVariable]
    else { return nil }
    let meant = String(name.map { $0 == "/" ? "-" : $0 })
    let template = service.split(separator: "@").first.map { $0 + "@" } ?? "morsetorch-beacon@"
    return "systemd reads a `-` in the instance name of \(shown: service) as `/`: for the LED "
      + "\"\(meant)\", escape it: `sudo systemctl enable --now \"\(template)$(systemd-escape "
      + "'\(meant)').service\"` (and disable the unit with the unescaped name)."
  }
}
