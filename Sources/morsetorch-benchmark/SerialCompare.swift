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
  ] + networkKeyers(port: port, unit: unit, message: message, steps: steps)
}

/// `morsetorch cwdaemon` and cwdaemon 0.13 itself (`$CWDAEMON`, else where `.ci/test-cwdaemon`
/// built it, else on the path), each keying RTS with the same message sent as one datagram
/// half a second after it starts (so their `1st edge` is half a second later than the
/// others'), then told to exit (ESC 5) a second after the message is over. Only at a unit
/// that is a whole number of WPM from 4 to 60, cwdaemon's speeds, and for a message of at
/// most 256 bytes, one datagram.
private func networkKeyers(port: String, unit: Duration, message: String, steps: [MorseStep])
  -> [(name: String, command: [String])]
{
  let wordsPerMinute = Duration.milliseconds(1200) / unit
  guard wordsPerMinute == wordsPerMinute.rounded(), (4...60).contains(Int(wordsPerMinute)),
    message.utf8.count <= 256
  else { return [] }
  let length = steps.reduce(Duration.zero) { $0 + $1.duration }
  let seconds = String(format: "%.3f", length / .seconds(1) + 1)
  // $1 the UDP port, $2 the message, $3 how long it lasts plus a second; the daemon's words
  // after them.
  let script =
    "udp=$1 text=$2 wait=$3; shift 3; \"$@\" & daemon=$!; "
    + "sleep 0.5; printf '%s' \"$text\" >/dev/udp/127.0.0.1/$udp; "
    + "sleep \"$wait\"; printf '\\0335' >/dev/udp/127.0.0.1/$udp; wait $daemon"
  let daemon = { (program: [String], udp: Int) -> [String] in
    ["/bin/bash", "-c", script, "keyer", String(udp), message, seconds] + program
      + [
        "-n", "-x", "n", "-d", port, "-o", "key=rts", "-o", "ptt=none", "-s",
        String(Int(wordsPerMinute)), "-p", String(udp),
      ]
  }
  var keyers: [(name: String, command: [String])] = [
    ("morsetorch cwdaemon (a datagram)", daemon([morsetorchPath, "cwdaemon"], 6_791))
  ]
  let environment = ProcessInfo.processInfo.environment
  let onPath = (environment["PATH"] ?? "").split(separator: ":").map { String($0) + "/cwdaemon" }
  let candidates: [String] =
    [environment["CWDAEMON"], "/var/cache/morsetorch-ci/cwdaemon-0.13.0/src/cwdaemon"]
    .compactMap { $0 } + onPath
  if let cwdaemon = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
    keyers.append(("cwdaemon 0.13, libcw (a datagram)", daemon([cwdaemon], 6_792)))
  }
  return keyers
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
