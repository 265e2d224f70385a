import GPIODriver
import LEDDriver
import LinuxSystem
import TransmitterControl

/// What `stop` and `status` share: options, help, the runtime directory, the LEDs to look at,
/// and exit status 3 when no LED had anything to show.
enum ControlCommand {
  /// Parses `words`, then calls `body` for each LED (the one `--led` names, or every LED with a
  /// lock); `body` returns how many transmissions it found there.
  static func run(
    _ command: String, _ words: [String], help: String,
    environment: [String: String],
    body: (_ name: String, _ runtime: RuntimeDirectory) throws -> Int
  ) throws -> Int32 {
    guard case .run(let plan) = try Invocation<ControlPlan>(words, command: command) else {
      return Morsetorch.printing(help)
    }
    let runtime = try RuntimeDirectory(environment: environment)
    let (requests, lines, isEverything) = (plan.leds, plan.lines, plan.isEverything)
    let names =
      try isEverything
      ? try Transmissions.names(in: runtime)
      : chosen(requests, runtime: runtime, environment: environment)
        + lines.map { try lockName(of: $0, environment: environment) }
    var found = 0
    // One device that fails (a leftover that cannot be put back) does not hide the others;
    // the first failure decides the status, the later ones are said as they come.
    var firstError: (any Error)?
    for name in names {
      do {
        found += try body(name, runtime)
      } catch {
        if firstError == nil { firstError = error } else { Console.error(failureReport(for: error).message) }
      }
    }
    if let firstError { throw firstError }
    guard found > 0 else {
      let asked = requests.isEmpty ? [] : [DeviceNames.naming(requests)]
      let askedLines =
        lines.isEmpty ? [] : ["GPIO " + lines.map(\.description).joined(separator: ", ")]
      Console.error(
        "nothing is being sent"
          + (isEverything ? "" : " on " + (asked + askedLines).joined(separator: ", ")))
      return ExitStatus.notRunning
    }
    return ExitStatus.success
  }

  /// The LEDs `--led` names: each a name, or a shell-style pattern matched against the LEDs
  /// the runtime directory knows (those that are or were sent on). Sorted, without repeats.
  private static func chosen(
    _ requests: [String], runtime: RuntimeDirectory, environment: [String: String]
  ) throws -> [String] {
    let known = try Transmissions.names(in: runtime).filter { !DeviceNames.isGPIOLine($0) }
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

  /// The lock name of the GPIO line `address` names (its chip must be there to say which).
  private static func lockName(of address: GPIOLineAddress, environment: [String: String])
    throws -> String
  {
    let line = try GPIOChipDirectory(environment: environment).line(address)
    return GPIODevice.lockName(chip: line.chipName, offset: line.offset)
  }

  /// Restores the LEDs a killed transmitter had claimed together with one just restored.
  /// Their records name that one, whose record is gone: no going round in circles. Never
  /// call it with an LED this process holds (closing a second descriptor of a lock file
  /// would release the lock).
  static func recoverCompanions(
    _ companions: [String], runtime: RuntimeDirectory, environment: [String: String]
  ) {
    for name in companions {
      do {
        _ = try recoverLeftover(name, runtime: runtime, environment: environment)
      } catch {
        Console.error(failureReport(for: error).message)
      }
    }
  }

  /// Restores device `name` (an LED, or a GPIO line) from a record left by a killed
  /// transmitter, if there is one, and the other devices that transmitter had claimed with
  /// it; whether it did. A corrupt record is reported (as `send` does) and left alone; a
  /// restore that fails throws (`LeftoverRestoreFailure`), and the record stays.
  static func recoverLeftover(
    _ name: String, runtime: RuntimeDirectory, environment: [String: String]
  ) throws -> Bool {
    switch DeviceRecord.read(name, in: runtime) {
    case .record: break
    case .corrupt(let path, let reason):
      Console.error(ControlNote.corruptRecordIgnored(path: path, reason: reason).message)
      return false
    case .none: return false
    }
    guard let note = try recoverLeftoverOf(name, runtime: runtime, environment: environment)
    else { return false }
    Console.error(note.message)
    guard case .leftoverRestored(_, _, let companions, _) = note else { return false }
    recoverCompanions(companions, runtime: runtime, environment: environment)
    return true
  }

  /// The restore itself, with the device found as its kind says: an LED by name, a GPIO line
  /// by the chip and offset its record keeps.
  private static func recoverLeftoverOf(
    _ name: String, runtime: RuntimeDirectory, environment: [String: String]
  ) throws -> ControlNote? {
    guard DeviceNames.isGPIOLine(name) else {
      guard let led = try? LEDClassDirectory(environment: environment).led(named: name)
      else { return nil }
      return try TransmitterSession.recoverLeftover(of: LEDDevice(led: led), in: runtime)
    }
    guard
      case .record(let record) = Transmissions.record(of: name, as: GPIODevice.self, in: runtime)
    else { return nil }
    let saved = record.saved
    guard
      let line = try GPIOChipDirectory(environment: environment).recordedLine(
        chip: saved.chip, offset: saved.offset)
    else { return nil }
    return try TransmitterSession.recoverLeftover(
      of: GPIODevice(line: line, isActiveLow: saved.isActiveLow), in: runtime)
  }
}
