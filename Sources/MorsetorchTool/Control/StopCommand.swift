import DeviceContract
import LEDDriver
import LinuxSystem
import TransmitterControl

/// `morsetorch stop`: cancels what is being sent (and waiting) on one LED or all.
enum StopCommand {
  static func run(_ words: [String], environment: ProcessEnvironment) throws -> Int32 {
    var stopped: [ControlCommand.Target: Result<Stopped, any Error>] = [:]
    // A sender of several devices holds each: it is one transmission, said once.
    var reported = Set<Int32>()
    return try ControlCommand.run(
      "stop", words, help: HelpText.stop.text, environment: environment,
      prepare: { targets in
        // Every device at once, so that a holder that never answers costs its patience once,
        // not once per device.
        let outcomes = Threads.concurrentMap(targets) { target in
          Result { () throws -> Stopped in try stop(target.device, in: target.runtime) }
        }
        stopped = Dictionary(zip(targets, outcomes)) { first, _ in first }
      }
    ) { device, runtime in
      var count = 0
      if let outcome = stopped[ControlCommand.Target(device: device, runtime: runtime)] {
        count += try report(outcome.get(), on: device, besides: &reported)
      }
      // Once every holder has let go (those killed left records).
      if try ControlCommand.recoverLeftover(device, runtime: runtime, environment: environment) {
        count += 1
      }
      return count
    }
  }

  /// What was stopped on one device.
  private struct Stopped: Sendable {
    /// The record read before the holder was stopped (it removes it as it stops).
    let record: RecordReading
    let waiters: [Int32]
    let holder: Int32?
  }

  /// Stops the senders waiting for `device`, then the transmission holding it.
  private static func stop(_ device: DeviceID, in runtime: RuntimeDirectory) throws -> Stopped {
    let record = Transmissions.readRecordLater(of: device, in: runtime)
    let waiters = try Transmissions.stopWaiters(of: device, in: runtime)
    return Stopped(
      record: record, waiters: waiters, holder: try Transmissions.stop(device, in: runtime))
  }

  /// Says what was stopped on `device` but the processes in `reported`, which it adds to;
  /// how many.
  private static func report(
    _ stopped: Stopped, on device: DeviceID, besides reported: inout Set<Int32>
  ) -> Int {
    let waiters = stopped.waiters.filter { reported.insert($0).inserted }
    for pid in waiters {
      Console.output("stopped a sender waiting for \(DeviceNames.naming([device])) (pid \(pid))")
    }
    guard let pid = stopped.holder, reported.insert(pid).inserted else { return waiters.count }
    var names = [device]
    var what = ""
    if case .record(let found) = stopped.record.decoded(for: device), found.pid == pid {
      names = found.group ?? names
      what = ", \"\(TerminalText.escaped(found.text))\""
    }
    Console.output("stopped the transmission on \(DeviceNames.naming(names)) (pid \(pid)\(what))")
    return waiters.count + 1
  }
}
