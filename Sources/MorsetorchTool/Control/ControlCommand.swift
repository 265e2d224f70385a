import DeviceContract
import GPIODriver
import LEDDriver
import LinuxSystem
import TransmitterControl

/// What `stop` and `status` share: options, help, the runtime directory, the LEDs to look at,
/// and exit status 3 when no LED had anything to show.
enum ControlCommand {
  /// Parses `words`, then calls `prepare` with every device to look at (those `--led` and
  /// `--gpio` name, or every device there is with a lock file), and `body` for each of them;
  /// `body` returns how many transmissions it found there.
  ///
  /// Without `--led` or `--gpio`, a device that fails for what another user put there is said
  /// on standard error and changes nothing of the exit status: anyone in the group may plant
  /// a lock or record that cannot be used, and that must not make everyone's `status` and
  /// `stop` fail. A holder that would not stop, or a record of this user's own that could not
  /// be put back, still does.
  static func run(
    _ command: String, _ words: [String], help: String,
    environment: ProcessEnvironment,
    prepare: (_ targets: [Target]) -> Void = { _ in },
    body: (_ device: DeviceID, _ runtime: RuntimeDirectory) throws -> Int
  ) throws -> Int32 {
    guard case .run(let plan) = try Invocation<ControlPlan>(words, command: command) else {
      return Morsetorch.printing(help)
    }
    let runtime = try RuntimeDirectory(environment: environment.variables)
    let isEverything = plan.isEverything
    // The kinds asked about, in the order of their options.
    let asked = DeviceKind.allCases.compactMap { kind in plan.asked[kind].map { (kind, $0) } }
    var seen = Set<DeviceID>()
    let devices = try
      (isEverything
      ? try Transmissions.devices(in: runtime).filter { $0.home.exists(environment: environment) }
      : asked.flatMap { kind, words in
        try kind.home.chosen(words, runtime: runtime, environment: environment)
      })
      .filter { seen.insert($0).inserted }
    // This user's transmissions that began in another place (before the shared directory was
    // made) are found too, wherever they started.
    let elsewhere = runtime.others.flatMap { other in
      ((try? Transmissions.devices(in: other)) ?? [])
        .filter { isEverything ? $0.home.exists(environment: environment) : seen.contains($0) }
        .map { Target(device: $0, runtime: other) }
    }
    let targets = devices.map { Target(device: $0, runtime: runtime) } + elsewhere
    prepare(targets)
    var found = 0
    // One device that fails (a leftover that cannot be put back) does not hide the others;
    // of the devices named, the first failure decides the status, the later ones are said as
    // they come.
    var firstError: (any Error)?
    for target in targets {
      do {
        found += try body(target.device, target.runtime)
      } catch {
        if firstError == nil && (!isEverything || isOwnFailure(error)) {
          firstError = error
        } else {
          Console.error(failureReport(for: error).message)
        }
      }
    }
    if let firstError { throw firstError }
    guard found > 0 else {
      let named = asked.map { kind, words in kind.home.naming(controlWords: words) }
      Console.error(
        "nothing is being sent" + (isEverything ? "" : " on " + named.joined(separator: ", ")))
      return ExitStatus.notRunning
    }
    return ExitStatus.success
  }

  /// A device to look at, in the runtime directory where its files are.
  struct Target: Hashable {
    let device: DeviceID
    let runtime: RuntimeDirectory
  }

  /// Whether `error` is a failure of this user's own, not one that another user's files in
  /// the shared directory can cause.
  private static func isOwnFailure(_ error: any Error) -> Bool {
    if case .holderDidNotStop = error as? ControlError { return true }
    if let failure = error as? LeftoverRestoreFailure {
      return failure.writerID == CurrentProcess.effectiveUserID
    }
    return false
  }

  /// Restores the devices a killed transmitter had claimed together with one just restored.
  /// Their records name that one, whose record is gone: no going round in circles. Never
  /// call it with a device this process holds (closing a second descriptor of a lock file
  /// would release the lock).
  static func recoverCompanions(
    _ companions: [DeviceID], runtime: RuntimeDirectory, environment: ProcessEnvironment
  ) {
    for device in companions {
      do {
        _ = try recoverLeftover(device, runtime: runtime, environment: environment)
      } catch {
        Console.error(failureReport(for: error).message)
      }
    }
  }

  /// Restores `device` from a record left by a killed transmitter, if there is one, and the
  /// other devices that transmitter had claimed with it; whether it did. A corrupt record is
  /// reported (as `send` does) and left alone; a restore that fails throws
  /// (`LeftoverRestoreFailure`), and the record stays.
  static func recoverLeftover(
    _ device: DeviceID, runtime: RuntimeDirectory, environment: ProcessEnvironment
  ) throws -> Bool {
    let record: TransmissionRecord
    switch Transmissions.record(of: device, in: runtime) {
    case .record(let found): record = found
    case .corrupt(let path, let reason):
      Console.error(ControlNote.corruptRecordIgnored(path: path, reason: reason).message)
      return false
    case .none: return false
    }
    guard let driver = try device.home.driver(record: record, environment: environment),
      let note = try TransmitterSession.recoverLeftover(of: driver, in: runtime)
    else { return false }
    Console.error(note.message)
    guard case .leftoverRestored(_, _, let companions, _, _) = note else { return false }
    recoverCompanions(companions, runtime: runtime, environment: environment)
    return true
  }
}
