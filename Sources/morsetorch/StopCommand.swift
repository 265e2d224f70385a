import LEDDriver
import TransmitterControl

/// `morsetorch stop`: cancels what is being sent (and waiting) on one LED or all.
enum StopCommand {
  static func run(_ words: [String], environment: [String: String]) throws -> Int32 {
    try ControlCommand.run(
      "stop", words, help: HelpText.stop, environment: environment
    ) { name, runtime in
      var stopped = 0
      let record = Transmissions.readRecordLater(of: name, in: runtime)
      for pid in try Transmissions.stopWaiters(of: name, in: runtime) {
        Console.output("stopped a sender waiting for \(DeviceNames.naming([name])) (pid \(pid))")
        stopped += 1
      }
      if let pid = try Transmissions.stop(name, in: runtime) {
        var names = [name]
        var what = ""
        if case .record(let found) = DeviceRecord.decode(record, of: name), found.pid == pid {
          names = found.group ?? names
          what = ", \"\(TerminalText.escaped(found.text))\""
        }
        Console.output(
          "stopped the transmission on \(DeviceNames.naming(names)) (pid \(pid)\(what))")
        stopped += 1
      }
      if try ControlCommand.recoverLeftover(name, runtime: runtime, environment: environment) {
        stopped += 1
      }
      return stopped
    }
  }
}
