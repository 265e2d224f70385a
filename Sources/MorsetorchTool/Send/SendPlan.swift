import LEDDriver
import MorseCore
import MorsePlayer
import MorseSound
import TransmitterControl

/// What `send` was asked to do, every option checked: what, how fast, how often, where.
struct SendPlan: CommandPlan {
  /// Where the light goes.
  enum Destination {
    /// `--detach`: the same command, less `--detach`, in the background.
    case detached
    /// `--dry-run`: the timeline, or its edges or sound, written at once.
    case dryRun(DryRunOutput)
    /// `--preview`: the light in this terminal.
    case preview
    /// The devices: those the kinds' options name (`--led`, `--gpio`, `--serial`), in
    /// lockstep, or with none named, the default kind's (`DeviceKind.default`).
    case devices(any SendChoice)
  }

  /// TEXT, or nil for standard input, line by line.
  let text: String?
  /// TEXT, checked character by character.
  let message: MorseMessage?
  /// `--skip-unknown`, or a stream: drop characters without a Morse signal; else fail on them.
  let unknownCharacters: UnknownCharacterPolicy
  /// `--wpm`, `--unit`, `--farnsworth`.
  let timing: MorseTiming
  /// `--brightness`.
  let brightness: BrightnessSetting
  /// `--replace`, `--wait` or `--queue`: what to do when the LED is busy.
  let conflicts: ConflictPolicy
  /// `--repeat`, `--loop`, `--pause`.
  let repetition: Repetition
  /// Where the light goes.
  let destination: Destination
  /// `--tone`: the sound's pitch, in Hz.
  let tone: Int
  /// `--echo`.
  let echoes: Bool
  /// `--quiet`.
  let isQuiet: Bool

  init(_ arguments: ParsedArguments<SendOption>) throws {
    try Self.checkCombinations(arguments)
    echoes = arguments.has(.echo)
    isQuiet = arguments.has(.quiet)
    // Everything is checked before any LED is touched.
    timing = try Self.timing(arguments)
    brightness = try Self.brightness(arguments.value(.brightness))
    text = try textOperand(arguments.operands, command: arguments.command)
    // A stream (standard input) never ends on a character with no Morse: real log lines
    // have them (`→`, a box-drawing line); TEXT given here is refused whole unless told.
    unknownCharacters = arguments.has(.skipUnknown) || text == nil ? .skip : .reject
    let unknownCharacters = unknownCharacters
    message = try text.map { try MorseMessage($0, unknownCharacters: unknownCharacters) }
    conflicts = try Self.conflictPolicy(arguments)
    tone = try Self.tone(arguments)
    // The devices' options are checked whether or not the devices are opened (a dry run).
    let choice = try SendChoices(
      Self.deviceKinds(arguments).map { try $0.home.sendChoice(arguments) })
    repetition = try Self.repetition(arguments, timing: timing, hasText: text != nil)
    destination = try Self.destination(
      arguments, choice: choice, hasText: text != nil, conflicts: conflicts)
  }

  /// Usage errors for flags that do not go together.
  private static func checkCombinations(_ arguments: ParsedArguments<SendOption>)
    throws(UsageError)
  {
    if arguments.has(.dryRun) && arguments.has(.preview) {
      throw .conflictingOptions(SendOption.dryRun.flag, SendOption.preview.flag)
    }
    // --echo writes standard output, which these already use (or, detached, leave).
    for other in [SendOption.dryRun, .preview, .detach]
    where arguments.has(.echo) && arguments.has(other) {
      throw .conflictingOptions(SendOption.echo.flag, other.flag)
    }
    if arguments.has(.edges) && arguments.has(.wav) {
      throw .conflictingOptions(SendOption.edges.flag, SendOption.wav.flag)
    }
    if arguments.has(.wav) && !arguments.has(.dryRun) {
      throw .requiresOption(SendOption.wav.flag, requirement: SendOption.dryRun.flag)
    }
    if arguments.has(.tone) && !arguments.has(.wav) && !arguments.has(.sound) {
      throw .requiresOption(
        SendOption.tone.flag,
        requirement: SendOption.sound.flag + " or " + SendOption.wav.flag
          + " FILE")
    }
    if arguments.has(.edges) && !arguments.has(.dryRun) {
      throw .requiresOption(SendOption.edges.flag, requirement: SendOption.dryRun.flag)
    }
  }

  /// The kinds of device sent on, in lockstep: those whose options name devices (`--led a
  /// --serial ttyUSB0`), else the default; usage errors for a kind's own option with none
  /// of the kinds that take it (or, not the default's, with none named), or `--preview` with
  /// a kind named other than the default.
  private static func deviceKinds(_ arguments: ParsedArguments<SendOption>) throws(UsageError)
    -> [DeviceKind]
  {
    let named = DeviceKind.allCases.filter { arguments.has($0.home.sendOption) }
    let kinds = named.isEmpty ? [DeviceKind.default] : named
    // An option of some kinds only (`--active-low`: GPIO lines and serial ports), with
    // none of them.
    for option in SendOption.allCases where arguments.has(option) {
      let takers = DeviceKind.allCases.filter { $0.home.sendOnlyOptions.contains(option) }
      guard !takers.isEmpty, !takers.contains(where: kinds.contains) else { continue }
      guard named.isEmpty else {
        throw .conflictingOptions(named[0].home.sendOption.flag, option.flag)
      }
      let requirements = takers.map { taker in
        let spec = taker.home.sendOption.spec
        return spec.isValueOptional ? spec.flag : spec.flag + " " + (spec.valueName ?? "")
      }
      throw .requiresOption(option.flag, requirement: OptionWords.listed(requirements))
    }
    if let other = kinds.first(where: { $0 != .default }), arguments.has(.preview) {
      throw .conflictingOptions(other.home.sendOption.flag, SendOption.preview.flag)
    }
    return kinds
  }

  /// Where the light goes; usage errors for what `--detach` does not go with.
  private static func destination(
    _ arguments: ParsedArguments<SendOption>, choice: any SendChoice, hasText: Bool,
    conflicts: ConflictPolicy
  ) throws(UsageError) -> Destination {
    if arguments.has(.detach) {
      guard hasText else {
        throw .requiresOption(
          SendOption.detach.flag, requirement: "TEXT (standard input stays here)")
      }
      for other in [SendOption.dryRun, .preview] where arguments.has(other) {
        throw .conflictingOptions(SendOption.detach.flag, other.flag)
      }
      if conflicts == .wait {
        let wait = arguments.has(.wait) ? SendOption.wait : .queue
        throw .conflictingOptions(SendOption.detach.flag, wait.flag)
      }
      return .detached
    }
    if arguments.has(.dryRun) {
      if let path = arguments.value(.wav) { return .dryRun(.wav(path: path)) }
      return .dryRun(arguments.has(.edges) ? .edges : .timeline)
    }
    if arguments.has(.preview) { return .preview }
    return .devices(choice)
  }

  /// The tones `--tone` may be, in Hz: whole numbers (a second then holds whole periods),
  /// from a low hum to well under what 48 000 samples a second can carry.
  static let toneRange = 100...4_000

  /// The tone without `--tone`: the synthesizer's.
  static let defaultTone = ToneSynthesizer.Settings().frequency

  /// `--tone HZ`, `defaultTone` without it.
  static func tone(_ arguments: ParsedArguments<SendOption>) throws -> Int {
    let expected = "a whole number of Hz from \(toneRange.lowerBound) to \(toneRange.upperBound)"
    guard let tone = try arguments.integer(.tone, expected: expected) else {
      return defaultTone
    }
    guard toneRange.contains(tone) else {
      throw UsageError.invalidValue(
        option: SendOption.tone.flag, value: String(tone), expected: expected)
    }
    return tone
  }

  /// The timing the options ask for.
  private static func timing(_ arguments: ParsedArguments<SendOption>) throws -> MorseTiming {
    let speeds = MorseTiming.wordsPerMinuteRange
    let speed = "a whole number from \(speeds.lowerBound) to \(speeds.upperBound)"
    let units = MorseTiming.unitMillisecondsRange
    let wordsPerMinute = try arguments.integer(.wpm, expected: speed)
    let unit = try arguments.integer(
      .unit, expected: "a whole number from \(units.lowerBound) to \(units.upperBound)")
    let farnsworth = try arguments.integer(.farnsworth, expected: speed)
    if wordsPerMinute != nil && unit != nil {
      throw UsageError.conflictingOptions(SendOption.wpm.flag, SendOption.unit.flag)
    }
    if let unit {
      if farnsworth != nil {
        throw UsageError.requiresOption(
          SendOption.farnsworth.flag, requirement: "--wpm, not --unit")
      }
      return try MorseTiming(unitMilliseconds: unit)
    }
    return try MorseTiming(wordsPerMinute: wordsPerMinute ?? 12, farnsworth: farnsworth)
  }

  /// The brightness `--brightness` asks for: "N" or "P%".
  static func brightness(_ text: String?) throws(UsageError) -> BrightnessSetting {
    guard let text else { return .maximum }
    let option = SendOption.brightness.flag
    if text.hasSuffix("%") {
      guard let percent = OptionWords.wholeNumber(text.dropLast()), (1...100).contains(percent)
      else {
        throw .invalidValue(option: option, value: text, expected: "a percentage 1% to 100%")
      }
      return .percent(percent)
    }
    guard let value = OptionWords.wholeNumber(text), value >= 1 else {
      throw .invalidValue(
        option: option, value: text, expected: "a whole number of at least 1, or P%")
    }
    return .value(value)
  }

  /// `--replace` or `--wait`/`--queue`; by default a rerun cancels (toggle).
  private static func conflictPolicy(_ arguments: ParsedArguments<SendOption>) throws(UsageError)
    -> ConflictPolicy
  {
    let waits = arguments.has(.wait) || arguments.has(.queue)
    if arguments.has(.replace) && waits {
      let wait = arguments.has(.wait) ? SendOption.wait : .queue
      throw .conflictingOptions(SendOption.replace.flag, wait.flag)
    }
    if arguments.has(.replace) { return .replace }
    return waits ? .wait : .toggle
  }

  /// `--repeat N` or `--loop`, a `--pause` apart (a word gap by default); once otherwise.
  /// Only TEXT is repeated: standard input is sent once, as it comes.
  private static func repetition(
    _ arguments: ParsedArguments<SendOption>, timing: MorseTiming, hasText: Bool
  ) throws(UsageError) -> Repetition {
    let counts = "a whole number from 1 to 1000000"
    let count = try arguments.integer(.repeat, expected: counts)
    let isLoop = arguments.has(.loop)
    if count != nil && isLoop {
      throw .conflictingOptions(SendOption.repeat.flag, SendOption.loop.flag)
    }
    if let count, !(1...1_000_000).contains(count) {
      throw .invalidValue(
        option: SendOption.repeat.flag, value: arguments.value(.repeat) ?? "", expected: counts)
    }
    let repeating = isLoop ? SendOption.loop : count != nil ? .repeat : nil
    if let repeating, !hasText {
      throw .requiresOption(
        repeating.flag, requirement: "TEXT (standard input is sent once, as it comes)")
    }
    if isLoop && arguments.has(.dryRun) {
      throw .conflictingOptions("--loop", "--dry-run (it would never end; use --repeat N)")
    }
    guard let pauseText = arguments.value(.pause) else {
      return Repetition(count: isLoop ? nil : count ?? 1, pause: timing.wordGap)
    }
    guard repeating != nil else {
      throw .requiresOption(SendOption.pause.flag, requirement: "--repeat N or --loop")
    }
    guard let pause = DurationText.parse(pauseText) else {
      throw .invalidValue(
        option: SendOption.pause.flag, value: pauseText,
        expected: "a time like 500ms, 2s, 1.5s or 1m (up to 24h)")
    }
    // Shorter, the rounds run together: a receiver reads them as one word (or one character).
    let shortest = shortestPause(timing)
    guard pause >= shortest else {
      throw .invalidValue(
        option: SendOption.pause.flag, value: pauseText,
        expected: "at least a word gap, \(shortest.millisecondsText)ms at this speed, so that "
          + "each round stays a word of its own")
    }
    return Repetition(count: isLoop ? nil : count, pause: pause)
  }

  /// The shortest `--pause`: a word gap at `timing`, rounded up to the microsecond (the
  /// finest `--pause` can be written) so that the time the error names is accepted.
  static func shortestPause(_ timing: MorseTiming) -> Duration {
    let (seconds, attoseconds) = timing.wordGap.components
    let perMicrosecond: Int64 = 1_000_000_000_000
    let microseconds = (attoseconds + perMicrosecond - 1) / perMicrosecond
    return .seconds(seconds) + .microseconds(microseconds)
  }
}
