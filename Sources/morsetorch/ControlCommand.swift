import LEDDriver
import LinuxSystem
import TransmitterControl

/// What `stop` and `status` share: options, help, the runtime directory, the LEDs to look at,
/// and exit status 3 when no LED had anything to show.
enum ControlCommand {
  /// Parses `words`, then calls `body` for each LED (the one `--led` names, or every LED with a
  /// lock); `body` returns how many transmissions it found there.
  static func run(
    _ command: String, _ words: [String], specs: [OptionSpec], help: String,
    environment: [String: String],
    body: (_ name: String, _ runtime: RuntimeDirectory) throws -> Int
  ) throws -> Int32 {
    let arguments = try ParsedArguments(words, specs: specs, command: command)
    if arguments.has("help") { return Morsetorch.printing(help) }
    guard arguments.operands.isEmpty else {
      throw UsageError.unexpectedOperands(command: command, arguments.operands)
    }
    let runtime = try RuntimeDirectory(environment: environment)
    let requests = arguments.all("led")
    let names =
      try requests.isEmpty
      ? Transmissions.names(in: runtime)
      : chosen(
        requests, runtime: runtime, environment: environment)
    var found = 0
    for name in names {
      found += try body(name, runtime)
    }
    guard found > 0 else {
      Console.error(
        "nothing is being sent"
          + (requests.isEmpty ? "" : " on " + SendCommand.naming(requests)))
      return ExitStatus.notRunning
    }
    return ExitStatus.success
  }

  /// The LEDs `--led` names: each a name, or a shell-style pattern matched against the LEDs
  /// the runtime directory knows (those that are or were sent on). Sorted, without repeats.
  private static func chosen(
    _ requests: [String], runtime: RuntimeDirectory, environment: [String: String]
  ) throws -> [String] {
    let known = Transmissions.names(in: runtime)
    var chosen = Set<String>()
    for request in requests {
      if NamePattern.isPattern(request) && !known.contains(request) {
        chosen.formUnion(known.filter(NamePattern(request).matches))
        continue
      }
      guard LEDClassDirectory.isValidName(request) else { throw LEDError.invalidName(request) }
      // A name that is neither an LED nor known to the runtime directory is a typo, not an
      // idle LED: say so, with the LEDs that exist.
      if !known.contains(request),
        case .none = Transmissions.record(of: request, as: LEDDevice.self, in: runtime)
      {
        _ = try LEDClassDirectory(environment: environment).led(named: request)
      }
      chosen.insert(request)
    }
    return chosen.sorted()
  }

  /// Restores the LEDs a killed transmitter had claimed together with one just restored.
  /// Their records name that one, whose record is gone: no going round in circles. Never
  /// call it with an LED this process holds (closing a second descriptor of a lock file
  /// would release the lock).
  static func recoverCompanions(
    _ companions: [String], runtime: RuntimeDirectory, environment: [String: String]
  ) {
    for name in companions {
      _ = recoverLeftover(name, runtime: runtime, environment: environment)
    }
  }

  /// Restores LED `name` from a record left by a killed transmitter, if there is one, and the
  /// other LEDs that transmitter had claimed with it; whether it did. A corrupt record is
  /// reported (as `send` does) and left alone.
  static func recoverLeftover(
    _ name: String, runtime: RuntimeDirectory, environment: [String: String]
  ) -> Bool {
    switch Transmissions.record(of: name, as: LEDDevice.self, in: runtime) {
    case .record: break
    case .corrupt(let path, let reason):
      Console.error(ControlNote.corruptRecordIgnored(path: path, reason: reason).message)
      return false
    case .none: return false
    }
    guard let led = try? LEDClassDirectory(environment: environment).led(named: name)
    else { return false }
    do {
      guard let note = try TransmitterSession.recoverLeftover(of: LEDDevice(led: led), in: runtime)
      else { return false }
      Console.error(note.message)
      guard case .leftoverRestored(_, _, let companions) = note else { return false }
      recoverCompanions(companions, runtime: runtime, environment: environment)
      return true
    } catch {
      Console.error("cannot restore LED \(name) from its leftover record: \(error)")
      return false
    }
  }
}
