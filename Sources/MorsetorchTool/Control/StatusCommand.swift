import LEDDriver
import LinuxSystem
import TransmitterControl

/// `morsetorch status`: what is being sent where, by whom, how far along.
enum StatusCommand {
  static func run(_ words: [String], environment: ProcessEnvironment) throws -> Int32 {
    try ControlCommand.run(
      "status", words, help: HelpText.status.text, environment: environment
    ) { device, runtime in
      let waiting = try Transmissions.waiters(of: device, in: runtime)
      guard let holder = try Transmissions.holder(of: device, in: runtime) else {
        // A leftover restored is something found: not "nothing ... nor left to restore".
        return try ControlCommand.recoverLeftover(
          device, runtime: runtime, environment: environment) ? 1 : 0
      }
      let shown = DeviceNames.shown(device)
      switch Transmissions.record(of: device, in: runtime) {
      case .record(let record) where record.pid == holder:
        Console.output(summary(of: record, holder: .of(holder), waiting: waiting))
      case .corrupt(let path, let reason):
        Console.output(
          "\(shown): held by pid \(holder); its record \(TerminalText.escaped(path)) is unusable: \(reason)"
        )
      default:
        Console.output("\(shown): held by pid \(holder), starting")
      }
      return 1
    }
  }

  /// What the kernel says of the process holding a device: whether it is stopped (Ctrl-Z,
  /// SIGSTOP), and the systemd service it runs in.
  struct Holder {
    var isStopped = false
    var unit: String?

    /// The facts of `pid`.
    static func of(_ pid: Int32) -> Holder {
      Holder(isStopped: ProcessFacts.isStopped(pid), unit: ProcessFacts.serviceUnit(pid))
    }
  }

  /// One line: in what state, sending what, by which process, user and service, how far
  /// along, for how long, and who waits. `userName` names the record's writer (the owner of
  /// its file, as the kernel says).
  static func summary(
    of record: TransmissionRecord, holder: Holder = Holder(),
    now: Double = WallTime.secondsSince1970(), waiting: [Int32] = [],
    userName: (UInt32) -> String? = { UserRights.of(userID: $0).name }
  ) -> String {
    var progress = "\(record.sentSymbols)"
    if let totalSymbols = record.totalSymbols { progress += " of \(totalSymbols)" }
    progress += (record.totalSymbols ?? record.sentSymbols) == 1 ? " character" : " characters"
    let doing: String
    if let waitingLine = record.waitingForLine {
      doing = "waiting for input (line \(waitingLine))"
    } else {
      doing = "sending \"\(TerminalText.escaped(record.text))\""
      if record.totalSymbols == nil { progress += ", line \(record.line)" }
    }
    if let rounds = record.rounds {
      let round = record.round ?? 1
      progress += rounds == 0 ? " (round \(round), looping)" : " (round \(round) of \(rounds))"
    }
    let elapsed = TerminalText.elapsed(seconds: now - record.startedAt)
    let others = (record.group ?? []).filter { $0 != record.device }
    let with = others.isEmpty ? "" : " (with \(DeviceNames.naming(others)))"
    let state = holder.isStopped ? "stopped (Ctrl-Z or SIGSTOP) while " : ""
    var who = ["pid \(record.pid)"]
    if let writer = record.writerID {
      who.append("user " + TerminalText.escaped(userName(writer) ?? "\(writer)"))
    }
    // (A unit's name holds nothing that needs escaping: `ProcessFacts.serviceUnit`.)
    if let unit = holder.unit { who.append("service " + unit) }
    var line =
      "\(DeviceNames.shown(record.device))\(with): \(state)\(doing) (\(who.joined(separator: ", "))): \(progress) begun, for \(elapsed)"
    if !waiting.isEmpty {
      line += "; \(waiting.count) waiting (pid \(waiting.map(String.init).joined(separator: ", ")))"
    }
    return line
  }
}
