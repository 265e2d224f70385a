import Foundation
import LinuxSystem
import MorseCore

/// `compare`: morsetorch and the other ways people send Morse on an LED, side by side, on the
/// same message and speed, each writing to a temporary LED directory of plain files whose
/// writes a separate thread timestamps (inotify, at SCHED_FIFO 20 when allowed: above every
/// sender), each edge scored against the ITU timeline.
struct Contender {
  /// The row's name.
  let name: String
  /// Why it cannot run here (and what to install), or nil.
  let missing: String?
  /// The program and its arguments (argv[0] first) for a brightness file and the steps.
  let command: (_ led: BenchLED, _ steps: [Duration]) -> [String]
}

/// How one contender did.
struct ContenderResult {
  let name: String
  let seen: Int
  let expected: Int
  /// Edge errors in ms after the run's constant offset is removed: median, p99 and max of
  /// their size.
  let median: Double
  let p99: Double
  let worst: Double
  /// Errors of each mark's and gap's length in ms (what a receiver hears): median, p99 and
  /// max of their size, over the elements whose both edges were seen in order.
  let lengthMedian: Double
  let lengthP99: Double
  let lengthWorst: Double
  /// The shortest element against its nominal length (1 = exact).
  let shortestShare: Double
  /// The trend of the error, in ms per minute of sending (Theil–Sen slope).
  let driftPerMinute: Double
  /// CPU time (user + system, with children) over wall time.
  let cpuShare: Double
  let peakResidentKilobytes: Int
  /// From the spawn to the first edge, ms.
  let firstEdge: Double
  let exitStatus: Int32
  let note: String
}

/// The slope of `errors` (ms) over `times` (ms): the median of the pairwise slopes.
func theilSenSlope(times: [Double], errors: [Double]) -> Double {
  var slopes: [Double] = []
  let count = times.count
  let stride = max(1, count / 300)  // at most about 300 points: 45k pairs
  let indices = Array(Swift.stride(from: 0, to: count, by: stride))
  for (position, first) in indices.enumerated() {
    for second in indices[(position + 1)...] where times[second] > times[first] {
      slopes.append((errors[second] - errors[first]) / (times[second] - times[first]))
    }
  }
  return percentile(slopes.sorted(), 0.5)
}

func score(
  name: String, edges: [SeenEdge], steps: [MorseStep], spawnedAt: Int64, exitedAt: Int64,
  usage: SenderUsage, exitStatus: Int32, note: String
) -> ContenderResult {
  // The ITU timeline: each step's start, and the final switch off.
  var expected: [(time: Double, isOn: Bool)] = []
  var time = 0.0
  for step in steps {
    expected.append((time, step.isOn))
    time += Double(step.duration / .nanoseconds(1)) / 1_000_000
  }
  if steps.last?.isOn == true { expected.append((time, false)) }
  let pairs = min(expected.count, edges.count)
  let seen = edges.map { Double($0.nanoseconds - spawnedAt) / 1_000_000 }
  let raw = (0..<pairs).map { seen[$0] - expected[$0].time }
  let offset = percentile(raw.sorted(), 0.5)
  let errors = raw.map { $0 - offset }
  let sizes = errors.map(abs).sorted()
  let wall = Double(exitedAt - spawnedAt) / 1_000_000_000
  let cpu = Double((usage.userTime + usage.systemTime) / .nanoseconds(1)) / 1_000_000_000
  let matching = (0..<pairs).allSatisfy { edges[$0].isOn == expected[$0].isOn }
  // Element lengths up to the first edge out of order (a lost edge misaligns the rest).
  let inOrder = (0..<pairs).prefix { edges[$0].isOn == expected[$0].isOn }.count
  let lengths = (0..<max(0, inOrder - 1)).map { index in
    (seen: seen[index + 1] - seen[index], nominal: expected[index + 1].time - expected[index].time)
  }
  let lengthSizes = lengths.map { abs($0.seen - $0.nominal) }.sorted()
  return ContenderResult(
    name: name, seen: edges.count, expected: expected.count,
    median: percentile(sizes, 0.5), p99: percentile(sizes, 0.99), worst: sizes.last ?? .nan,
    lengthMedian: percentile(lengthSizes, 0.5), lengthP99: percentile(lengthSizes, 0.99),
    lengthWorst: lengthSizes.last ?? .nan,
    shortestShare: lengths.map { $0.seen / $0.nominal }.min() ?? .nan,
    driftPerMinute: theilSenSlope(times: expected.prefix(pairs).map(\.time), errors: errors)
      * 60_000,
    cpuShare: wall > 0 ? cpu / wall : .nan, peakResidentKilobytes: usage.peakResidentKilobytes,
    firstEdge: seen.first ?? .nan, exitStatus: exitStatus,
    note: matching ? note : (note + " values out of order").trimmingCharacters(in: .whitespaces))
}

/// Runs `contender` once on a fresh LED, through the `usage` launcher, and scores it.
func run(_ contender: Contender, steps: [MorseStep], launcher: String) throws -> ContenderResult? {
  let directory = try makeLEDDirectory()
  defer { try? FileManager.default.removeItem(atPath: directory.root) }
  let led = BenchLED(
    root: directory.root, classDirectory: directory.leds, device: directory.root + "/devices/bench")
  try "[none] timer heartbeat\n".write(
    toFile: led.device + "/trigger", atomically: false, encoding: .utf8)
  guard let watcher = BrightnessWatcher(path: led.brightness) else {
    print("compare: inotify is not available here")
    return nil
  }
  watcher.start()
  var environment = ProcessInfo.processInfo.environment
  environment["MORSETORCH_LEDS_DIR"] = led.classDirectory
  environment["MORSETORCH_RUNTIME_DIR"] = led.root + "/run"
  let command = contender.command(led, steps.map(\.duration))
  let launched = try launch(
    command, through: launcher, environment: environment, report: led.root + "/usage.txt")
  usleep(20_000)
  let edges = watcher.stop()
  guard let run = launched else {
    print("  \(contender.name): no usage from the launcher")
    return nil
  }
  var note = watcher.isRealTime ? "" : "(watcher not real-time)"
  if run.status != 0 { note += " " + run.errors.suffix(1).joined() }
  return score(
    name: contender.name, edges: edges, steps: steps, spawnedAt: run.spawnedAt,
    exitedAt: run.exitedAt, usage: run.usage, exitStatus: run.status, note: note)
}

/// Runs `body` with a new scratch directory (removed after) and the usage launcher built in
/// it; says so and skips `mode` when there is no C compiler.
func withLauncher(_ mode: String, _ body: (_ scratch: String, _ launcher: String) throws -> Void)
  throws
{
  let scratch = NSTemporaryDirectory() + "morsetorch-\(mode)-" + UUID().uuidString
  try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: scratch) }
  guard let launcher = buildC("usage", into: scratch) else {
    print("\(mode): cannot build Sources/morsetorch-benchmark/C/usage.c (needs cc)")
    return
  }
  try body(scratch, launcher)
}

func runCompare(text: String, units: [Duration]) throws {
  try withLauncher("compare") { scratch, launcher in
    for unit in units {
      let (message, repeats, steps) = try benchmarkSteps(text: text, unit: unit)
      let length = steps.reduce(Duration.zero) { $0 + $1.duration }
      print(
        "compare: \"\(text)\"\(repeats > 1 ? " ×\(repeats)" : ""), unit \(unit.millisecondsText) ms (\(steps.count + 1) edges, "
          + "\(length.millisecondsText) ms); edges timestamped by inotify from outside the sender;"
          + " edge errors after removing the run's constant offset; length errors of each mark"
          + " and gap")
      printResultHeader()
      for contender in try contenders(unit: unit, text: message, scratch: scratch) {
        let label = contender.name.padding(toLength: 34, withPad: " ", startingAt: 0)
        if let missing = contender.missing {
          print("  \(label)  skipped: \(missing)")
          continue
        }
        guard let result = try run(contender, steps: steps, launcher: launcher) else { continue }
        printResult(result, label: label)
      }
      printResultLegend()
    }
  }
}

/// `text` repeated for at least about 5 s of sending at `unit` (for the drift): the message,
/// how many times, and its steps.
func benchmarkSteps(text: String, unit: Duration) throws -> (
  message: String, repeats: Int, steps: [MorseStep]
) {
  let timing = MorseTiming(unit: unit)
  let once = MorseSteps(try MorseMessage(text), timing: timing).reduce(Duration.zero) {
    $0 + $1.duration
  }
  let repeats = max(1, Int((Duration.seconds(5) / (once + timing.wordGap)).rounded(.up)))
  let message = Array(repeating: text, count: repeats).joined(separator: " ")
  return (message, repeats, Array(MorseSteps(try MorseMessage(message), timing: timing)))
}

/// The columns of `compare` and `serial`.
func printResultHeader() {
  print(
    "  "
      + [
        "sender".padding(toLength: 34, withPad: " ", startingAt: 0), "edges", "median", "p99",
        "max", "len med", "len p99", "len max", "shortest", "drift/min", "CPU", "peak RSS",
        "1st edge",
      ].map { $0.count < 10 ? String(repeating: " ", count: 10 - $0.count) + $0 : $0 }.joined())
}

/// One sender's row under `printResultHeader`.
func printResult(_ result: ContenderResult, label: String) {
  let cells = [
    "\(result.seen)/\(result.expected)", String(format: "%.3f", result.median),
    String(format: "%.3f", result.p99), String(format: "%.2f", result.worst),
    String(format: "%.3f", result.lengthMedian), String(format: "%.3f", result.lengthP99),
    String(format: "%.2f", result.lengthWorst),
    String(format: "%.0f%%", result.shortestShare * 100),
    String(format: "%+.2f", result.driftPerMinute),
    String(format: "%.1f%%", result.cpuShare * 100), "\(result.peakResidentKilobytes) kB",
    String(format: "%.1f", result.firstEdge),
  ].map { String(repeating: " ", count: max(0, 10 - $0.count)) + $0 }
  let exit = result.exitStatus == 0 ? "" : " exit \(result.exitStatus)"
  print("  \(label)\(cells.joined())\(exit) \(result.note)")
}

/// What the columns mean.
func printResultLegend() {
  print(
    "  (ms; len: error of each mark's and gap's length; shortest: the shortest element against"
      + " its nominal length; drift in ms per minute of sending; CPU: user+system over wall"
      + " time)")
}
