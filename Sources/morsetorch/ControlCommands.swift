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
private func recoverLeftover(_ name: String, runtime: RuntimeDirectory, environment: [String: String])
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

/// `morsetorch stop`: cancels what is being sent (and waiting) on one LED or all.
func runStop(_ words: [String], environment: [String: String]) throws -> Int32 {
  let arguments = try ParsedArguments(words, specs: Options.stop, command: "stop")
  if arguments.has("help") {
    Console.output(HelpText.stop)
    return ExitStatus.success
  }
  let runtime = try RuntimeDirectory(environment: environment)
  var stopped = 0
  for name in try controlledLEDs(arguments, runtime: runtime) {
    let record = LEDRuntime.record(of: name, in: runtime)
    for pid in LEDRuntime.stopWaiters(of: name, in: runtime) {
      Console.output("stopped a sender waiting for LED \(name) (pid \(pid))")
      stopped += 1
    }
    if let pid = try LEDRuntime.stop(name, in: runtime) {
      var line = "stopped the transmission on LED \(name) (pid \(pid)"
      if case .record(let found) = record, found.pid == pid { line += ", \"\(found.text)\"" }
      Console.output(line + ")")
      stopped += 1
    }
    if recoverLeftover(name, runtime: runtime, environment: environment) { stopped += 1 }
  }
  guard stopped > 0 else {
    Console.error("nothing is being sent" + (arguments.values["led"].map { " on LED \($0)" } ?? ""))
    return ExitStatus.notRunning
  }
  return ExitStatus.success
}

/// `morsetorch status`: what is being sent where, by whom, how far along.
func runStatus(_ words: [String], environment: [String: String]) throws -> Int32 {
  let arguments = try ParsedArguments(words, specs: Options.status, command: "status")
  if arguments.has("help") {
    Console.output(HelpText.status)
    return ExitStatus.success
  }
  let runtime = try RuntimeDirectory(environment: environment)
  var running = 0
  for name in try controlledLEDs(arguments, runtime: runtime) {
    let waiting = LEDRuntime.waiters(of: name, in: runtime)
    guard let holder = LEDRuntime.holder(of: name, in: runtime) else {
      _ = recoverLeftover(name, runtime: runtime, environment: environment)
      continue
    }
    running += 1
    switch LEDRuntime.record(of: name, in: runtime) {
    case .record(let record) where record.pid == holder:
      Console.output(record.summary(waiting: waiting))
    case .corrupt(let path, let reason):
      Console.output("\(name): held by pid \(holder); its record \(path) is unusable: \(reason)")
    default:
      Console.output("\(name): held by pid \(holder), starting")
    }
  }
  guard running > 0 else {
    Console.error("nothing is being sent" + (arguments.values["led"].map { " on LED \($0)" } ?? ""))
    return ExitStatus.notRunning
  }
  return ExitStatus.success
}
