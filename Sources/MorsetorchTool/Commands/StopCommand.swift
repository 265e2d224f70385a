import LEDDriver
import MorsePlayer
import TransmitterControl

/// `morsetorch stop`: cancels what is being sent (and waiting) on one LED or all.
enum StopCommand {
  static func run(_ words: [String], environment: ProcessEnvironment) throws -> Int32 {
    try ControlCommand.run(
      "stop", words, help: HelpText.stop, environment: environment
    ) { device, runtime in
      var stopped = 0
      let record = Transmissions.readRecordLater(of: device, in: runtime)
      for pid in try Transmissions.stopWaiters(of: device, in: runtime) {
        Console.output("stopped a sender waiting for \(DeviceNames.naming([device])) (pid \(pid))")
        stopped += 1
      }
      if let pid = try Transmissions.stop(device, in: runtime) {
        var names = [device]
        var what = ""
        if case .record(let found) = record.decoded(for: device), found.pid == pid {
          names = found.group ?? names
          what = ", \"\(TerminalText.escaped(found.text))\""
        }
        Console.output(
          "stopped the transmission on \(DeviceNames.naming(names)) (pid \(pid)\(what))")
        stopped += 1
      }
      if try ControlCommand.recoverLeftover(device, runtime: runtime, environment: environment) {
        stopped += 1
      }
      return stopped
    }
  }
}
