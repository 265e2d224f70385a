import Foundation
import LinuxSystem
import MorseCore

/// `serial`: `morsetorch send --serial PORT:rts` beside the C floor on a real serial port,
/// each edge of RTS timestamped from outside the sender (C/serialline.c samples the kernel's
/// record of RTS every 50 us) and scored against the ITU timeline as `compare` scores an LED.
///
/// The port is held at speed 0 while they run, so that no open moves a line, and put back
/// after. Root, or a member of the port's group; the port's RTS moves, so nothing may be
/// wired to it that minds.
func runSerial(port: String, text: String, units: [Duration]) throws {
  guard FileManager.default.fileExists(atPath: port) else {
    print("serial: there is no \(port) here (--port PATH names a serial port)")
    return
  }
  try withLauncher("serial") { scratch, launcher in
    guard let line = buildC("serialline", into: scratch) else {
      print("serial: cannot build Sources/morsetorch-benchmark/C/serialline.c (needs cc)")
      return
    }
    var environment = ProcessInfo.processInfo.environment
    environment["MORSETORCH_RUNTIME_DIR"] = scratch + "/run"
    try FileManager.default.createDirectory(
      atPath: scratch + "/run", withIntermediateDirectories: true)
    for unit in units {
      let (message, repeats, steps) = try benchmarkSteps(text: text, unit: unit)
      let length = steps.reduce(Duration.zero) { $0 + $1.duration }
      print(
        "serial: \(port) RTS, \"\(text)\"\(repeats > 1 ? " ×\(repeats)" : ""), unit "
          + "\(unit.millisecondsText) ms (\(steps.count + 1) edges, \(length.millisecondsText) ms);"
          + " edges sampled every 50 us from outside the sender (TIOCMGET)")
      printResultHeader()
      let contenders = serialContenders(
        port: port, unit: unit, message: message, steps: steps, line: line)
      for contender in contenders {
        let label = contender.name.padding(toLength: 34, withPad: " ", startingAt: 0)
        guard
          let edges = try watchingRTS(
            of: port, with: line, scratch: scratch,
            while: {
              try launch(
                contender.command, through: launcher, environment: environment,
                report: scratch + "/usage.txt")
            })
        else {
          print("  \(label)  skipped: cannot watch \(port)")
          continue
        }
        guard let run = edges.run else {
          print("  \(label)  skipped: no usage from the launcher")
          continue
        }
        let note = run.status == 0 ? "" : run.errors.suffix(1).joined()
        printResult(
          score(
            name: contender.name, edges: edges.seen.filter { $0.nanoseconds >= run.spawnedAt },
            steps: steps, spawnedAt: run.spawnedAt, exitedAt: run.exitedAt, usage: run.usage,
            exitStatus: run.status, note: note), label: label)
      }
      printResultLegend()
    }
  }
}

/// `morsetorch send --serial PORT:rts` and the C floor on `port`: names and commands.
private func serialContenders(
  port: String, unit: Duration, message: String, steps: [MorseStep], line: String
) -> [(name: String, command: [String])] {
  [
    (
      "morsetorch send --serial",
      [
        morsetorchPath, "send", "--serial", port + ":rts", "--unit",
        String(Int(unit / .milliseconds(1))), message,
      ]
    ),
    (
      "C, clock_nanosleep (floor)",
      [line, "key", port] + steps.map { String($0.duration / .nanoseconds(1)) }
    ),
  ]
}

/// Runs `body` while `serialline watch` samples `port`'s RTS: the edges it saw, and what
/// `body` gave; nil if the watcher did not start.
private func watchingRTS(
  of port: String, with line: String, scratch: String, while body: () throws -> LaunchedRun?
) throws -> (seen: [SeenEdge], run: LaunchedRun?)? {
  let output = scratch + "/rts.txt"
  let file = try FileDescriptor.open(output, [.writeOnly, .create, .truncate])
  var descriptors = SpawnDescriptors()
  descriptors.give(file, as: 1)
  let watcher = try ChildProcess.spawn(
    line, arguments: [line, "watch", port], environment: [:], descriptors: descriptors,
    defaultSignals: [SIGTERM])
  var isReady = false
  for _ in 0..<200 where !isReady {
    usleep(10_000)
    isReady = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").hasPrefix("ready")
  }
  let run = isReady ? try body() : nil
  usleep(20_000)
  kill(watcher, SIGTERM)
  _ = try? ChildProcess.waitForExit(watcher)
  guard isReady else { return nil }
  let seen = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
    .split(separator: "\n").dropFirst().compactMap { row -> SeenEdge? in
      let fields = row.split(separator: " ")
      guard fields.count == 2, let time = Int64(fields[0]) else { return nil }
      return SeenEdge(nanoseconds: time, isOn: fields[1] == "1")
    }
  return (seen, run)
}
