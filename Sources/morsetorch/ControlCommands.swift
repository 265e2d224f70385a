import MorseCore

/// The LEDs `stop` and `status` look at: the one `--led` names, or every one with a lock.
private func controlledLEDs(_ arguments: ParsedArguments, runtime: RuntimeDirectory) throws
  -> [String]
{
  guard arguments.operands.isEmpty else {
    throw UsageError.unexpectedOperands(command: "stop/status", arguments.operands)
  }
  if let name = arguments.values["led"] {
    guard LEDClassDirectory.isValidName(name) else { throw TorchError.invalidName(name) }
    return [name]
  }
  return LEDRuntime.leds(in: runtime)
}

/// Restores `name` from a record left by a killed transmitter, if there is one.
private func recoverLeftover(
  _ name: String, runtime: RuntimeDirectory, environment: [String: String]
)
  -> Bool
{
  guard case .record = LEDRuntime.record(of: name, in: runtime),
    let led = try? LEDClassDirectory(environment: environment).led(named: name)
  else { return false }
  do {
    return try LEDSession.recoverLeftover(of: led, in: runtime) { Console.error($0) }
  } catch {
    Console.error("cannot restore LED \(name) from its leftover record: \(error)")
    return false
  }
}

/// The frame of `stop` and `status`: options, help, the runtime directory, each LED in turn
/// (`body` returns how many transmissions it found), and status 3 when there were none.
private func runControl(
  _ command: String, _ words: [String], specs: [OptionSpec], help: String,
  environment: [String: String],
  body: (_ name: String, _ runtime: RuntimeDirectory) throws -> Int
) throws -> Int32 {
  let arguments = try ParsedArguments(words, specs: specs, command: command)
  if arguments.has("help") {
    Console.output(help)
    return ExitStatus.success
  }
  let runtime = try RuntimeDirectory(environment: environment)
  var found = 0
  for name in try controlledLEDs(arguments, runtime: runtime) {
    found += try body(name, runtime)
  }
  guard found > 0 else {
    Console.error("nothing is being sent" + (arguments.values["led"].map { " on LED \($0)" } ?? ""))
    return ExitStatus.notRunning
  }
  return ExitStatus.success
}

/// `morsetorch stop`: cancels what is being sent (and waiting) on one LED or all.
func runStop(_ words: [String], environment: [String: String]) throws -> Int32 {
  try runControl(
    "stop", words, specs: Options.stop, help: HelpText.stop, environment: environment
  ) { name, runtime in
    var stopped = 0
    let record = LEDRuntime.readRecordLater(of: name, in: runtime)
    for pid in LEDRuntime.stopWaiters(of: name, in: runtime) {
      Console.output("stopped a sender waiting for LED \(name) (pid \(pid))")
      stopped += 1
    }
    if let pid = try LEDRuntime.stop(name, in: runtime) {
      var line = "stopped the transmission on LED \(name) (pid \(pid)"
      if case .record(let found) = record.decoded(), found.pid == pid {
        line += ", \"\(found.text)\""
      }
      Console.output(line + ")")
      stopped += 1
    }
    if recoverLeftover(name, runtime: runtime, environment: environment) { stopped += 1 }
    return stopped
  }
}

/// `morsetorch status`: what is being sent where, by whom, how far along.
func runStatus(_ words: [String], environment: [String: String]) throws -> Int32 {
  try runControl(
    "status", words, specs: Options.status, help: HelpText.status, environment: environment
  ) { name, runtime in
    let waiting = LEDRuntime.waiters(of: name, in: runtime)
    guard let holder = LEDRuntime.holder(of: name, in: runtime) else {
      _ = recoverLeftover(name, runtime: runtime, environment: environment)
      return 0
    }
    switch LEDRuntime.record(of: name, in: runtime) {
    case .record(let record) where record.pid == holder:
      Console.output(record.summary(waiting: waiting))
    case .corrupt(let path, let reason):
      Console.output("\(name): held by pid \(holder); its record \(path) is unusable: \(reason)")
    default:
      Console.output("\(name): held by pid \(holder), starting")
    }
    return 1
  }
}
