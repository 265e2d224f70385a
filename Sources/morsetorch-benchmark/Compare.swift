import Foundation
import LinuxSystem
import MorseCore
import MorsePlayer

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

/// One LED of the benchmark: its class directory, its device directory, its name.
struct BenchLED {
  let root: String
  let classDirectory: String
  let device: String
  var brightness: String { device + "/brightness" }
}

/// An LED edge a watcher saw: when (CLOCK_MONOTONIC, ns) and whether it went on.
struct SeenEdge {
  let nanoseconds: Int64
  let isOn: Bool
}

func monotonicNanoseconds() -> Int64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// Timestamps every change of a brightness file from outside the process that writes it:
/// inotify reports each write (`IN_MODIFY`, `IN_CLOSE_WRITE`), the file is read at once, and a
/// change between zero and non-zero is an edge. An empty read (a writer that truncates first)
/// is no value.
final class BrightnessWatcher: @unchecked Sendable {
  private let path: String
  private let watch: Int32
  private let stopPipe: [Int32]
  private var thread: Thread?
  private let done = DispatchSemaphore(value: 0)
  private(set) var edges: [SeenEdge] = []
  private(set) var isRealTime = false

  init?(path: String) {
    self.path = path
    watch = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    var pipeEnds: [Int32] = [0, 0]
    guard watch >= 0, inotify_add_watch(watch, path, UInt32(IN_MODIFY | IN_CLOSE_WRITE)) >= 0,
      pipe(&pipeEnds) == 0
    else { return nil }
    stopPipe = pipeEnds
  }

  deinit {
    close(watch)
    close(stopPipe[0])
    close(stopPipe[1])
  }

  /// Starts watching; the thread is running (and raised) when this returns.
  func start() {
    let ready = DispatchSemaphore(value: 0)
    let thread = Thread { [self] in
      var parameters = sched_param(sched_priority: 20)
      isRealTime = pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters) == 0
      ready.signal()
      run()
      done.signal()
    }
    thread.start()
    self.thread = thread
    ready.wait()
  }

  /// Stops watching and returns the edges seen.
  func stop() -> [SeenEdge] {
    var byte: UInt8 = 1
    _ = write(stopPipe[1], &byte, 1)
    done.wait()
    return edges
  }

  private func value() -> Int? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = read(descriptor, &buffer, buffer.count)
    guard count > 0 else { return nil }
    // The first number: a writer that rewrites at offset 0 without truncating leaves the
    // tail of a longer value after its newline ("0\n5\n").
    var number = 0
    var digits = 0
    for byte in buffer[..<count] {
      guard byte >= 0x30 && byte <= 0x39 else { break }
      number = number * 10 + Int(byte - 0x30)
      digits += 1
    }
    return digits > 0 ? number : nil
  }

  private func run() {
    var lastIsOn = (value() ?? 0) != 0
    var events = [UInt8](repeating: 0, count: 4096)
    var requests = [
      pollfd(fd: watch, events: Int16(POLLIN), revents: 0),
      pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
    ]
    while true {
      guard poll(&requests, 2, -1) >= 0 || errno == EINTR else { return }
      if requests[1].revents != 0 { return }
      guard requests[0].revents != 0 else { continue }
      let now = monotonicNanoseconds()
      while read(watch, &events, events.count) > 0 {}
      guard let value = value() else { continue }
      if (value != 0) != lastIsOn {
        lastIsOn = value != 0
        edges.append(SeenEdge(nanoseconds: now, isOn: lastIsOn))
      }
    }
  }
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

/// Builds one of the benchmark's C programs (Sources/morsetorch-benchmark/C) with `cc -O2`.
func buildC(_ name: String, into scratch: String) -> String? {
  let source =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/C/\(name).c"
  let output = scratch + "/" + name
  guard let compiler = which("cc") ?? which("gcc"),
    FileManager.default.fileExists(atPath: source),
    let pid = try? ChildProcess.spawn(
      compiler, arguments: [compiler, "-O2", "-Wall", "-o", output, source],
      environment: ProcessInfo.processInfo.environment, defaultSignals: []),
    (try? ChildProcess.waitForExit(pid)) == 0
  else { return nil }
  return output
}

/// Finds `program` on PATH.
func which(_ program: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for directory in path.split(separator: ":") {
    let candidate = "\(directory)/\(program)"
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  return nil
}

func seconds(_ duration: Duration) -> String {
  String(format: "%.6f", Double(duration / .nanoseconds(1)) / 1_000_000_000)
}

/// Whether `python3` can import python-periphery.
func hasPeriphery(_ python: String) -> Bool {
  guard
    let pid = try? spawnQuietly(
      python, environment: ProcessInfo.processInfo.environment, ["-c", "import periphery"])
  else { return false }
  return (try? ChildProcess.waitForExit(pid)) == 0
}

func contenders(unit: Duration, text: String, scratch: String) throws -> [Contender] {
  let morsetorch = morsetorchPath
  let floor = buildC("floor", into: scratch)
  let unitMilliseconds = String(Int(unit / .milliseconds(1)))
  var list: [Contender] = []
  list.append(
    Contender(
      name: "morsetorch send",
      missing: FileManager.default.isExecutableFile(atPath: morsetorch)
        ? nil : "\(morsetorch) not built (swift build -c release)",
      command: { _, _ in
        [morsetorch, "send", "--led", "bench", "--unit", unitMilliseconds, "--", text]
      }
    ))
  // What people write today: echo and sleep in a loop (sleep is a program: a fork and an exec
  // for every step).
  let shell = scratch + "/echo-sleep.sh"
  try """
  led=$1; shift
  state=255
  for duration in "$@"; do
    echo $state > "$led"
    sleep "$duration"
    if [ $state = 255 ]; then state=0; else state=255; fi
  done
  echo 0 > "$led"

  """.write(toFile: shell, atomically: false, encoding: .utf8)
  list.append(
    Contender(
      name: "shell loop (echo, sleep)", missing: which("sh") == nil ? "no sh" : nil,
      command: { led, steps in
        [which("sh") ?? "/bin/sh", shell, led.brightness] + steps.map(seconds)
      }
    ))
  list.append(
    Contender(
      name: "serial queue, relative sleeps", missing: nil,
      command: { led, steps in
        [CommandLine.arguments[0], "relative-queue", led.brightness]
          + steps.map { String($0 / .nanoseconds(1)) }
      }))
  // python-periphery's LED opens /sys/class/leds/NAME itself: it runs in a mount namespace of
  // its own where the benchmark's LED directory is mounted there.
  let python = which("python3")
  let periphery = scratch + "/periphery-led.py"
  try """
  import sys, time
  from periphery import LED
  led = LED("bench", True)
  state = True
  for duration in sys.argv[1:]:
      led.write(state)
      time.sleep(float(duration))
      state = not state
  led.write(False)
  led.close()

  """.write(toFile: periphery, atomically: false, encoding: .utf8)
  let unshare = which("unshare")
  var peripheryMissing: String?
  if python == nil {
    peripheryMissing = "no python3"
  } else if unshare == nil || getuid() != 0 {
    peripheryMissing = "needs root and unshare (util-linux) to show it an LED at /sys/class/leds"
  } else if !hasPeriphery(python ?? "") {
    peripheryMissing = "python-periphery is not installed (pip install python-periphery)"
  }
  list.append(
    Contender(
      name: "python-periphery LED, time.sleep", missing: peripheryMissing,
      command: { led, steps in
        [
          unshare ?? "", "--mount", "--propagation", "private", "/bin/sh", "-c",
          "mount -t tmpfs benchmark /sys/class && mkdir /sys/class/leds && "
            + "mount --bind \"$0\" /sys/class/leds && exec \"$@\"",
          led.classDirectory, python ?? "", periphery,
        ] + steps.map(seconds)
      }))
  list.append(
    Contender(
      name: "C, clock_nanosleep (floor)",
      missing: floor == nil ? "cannot build \(#filePath)/../C/floor.c (needs cc)" : nil,
      command: { led, steps in
        [floor ?? "", led.brightness, "255"] + steps.map { String($0 / .nanoseconds(1)) }
      }))
  return list
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
      let timing = MorseTiming(unit: unit)
      // At least about 5 s of sending, for the drift: the text repeated as often as that takes.
      let once = MorseSteps(try MorseMessage(text), timing: timing).reduce(Duration.zero) {
        $0 + $1.duration
      }
      let repeats = max(1, Int((Duration.seconds(5) / (once + timing.wordGap)).rounded(.up)))
      let message = Array(repeating: text, count: repeats).joined(separator: " ")
      let steps = Array(MorseSteps(try MorseMessage(message), timing: timing))
      let length = steps.reduce(Duration.zero) { $0 + $1.duration }
      print(
        "compare: \"\(text)\"\(repeats > 1 ? " ×\(repeats)" : ""), unit \(unit.millisecondsText) ms (\(steps.count + 1) edges, "
          + "\(length.millisecondsText) ms); edges timestamped by inotify from outside the sender;"
          + " edge errors after removing the run's constant offset; length errors of each mark"
          + " and gap")
      print(
        "  "
          + [
            "sender".padding(toLength: 34, withPad: " ", startingAt: 0), "edges", "median", "p99",
            "max", "len med", "len p99", "len max", "shortest", "drift/min", "CPU", "peak RSS",
            "1st edge",
          ].map { $0.count < 10 ? String(repeating: " ", count: 10 - $0.count) + $0 : $0 }.joined())
      for contender in try contenders(unit: unit, text: message, scratch: scratch) {
        let label = contender.name.padding(toLength: 34, withPad: " ", startingAt: 0)
        if let missing = contender.missing {
          print("  \(label)  skipped: \(missing)")
          continue
        }
        guard let result = try run(contender, steps: steps, launcher: launcher) else { continue }
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
      print(
        "  (ms; len: error of each mark's and gap's length; shortest: the shortest element against"
          + " its nominal length; drift in ms per minute of sending; CPU: user+system over wall"
          + " time)")
    }
  }}

/// `relative-queue BRIGHTNESS STEP_NS…`: the original torch app's model, a serial
/// OperationQueue whose operations switch the LED (open, write, close) and then sleep for the
/// step's duration: relative sleeps, so every write's and wake-up's lateness adds up.
func runRelativeQueue(_ arguments: [String]) {
  guard let path = arguments.first else { exit(64) }
  let queue = OperationQueue()
  queue.maxConcurrentOperationCount = 1
  @Sendable func set(_ value: String) {
    try? value.write(toFile: path, atomically: false, encoding: .utf8)
  }
  for (index, step) in arguments.dropFirst().enumerated() {
    let nanoseconds = Double(step) ?? 0
    queue.addOperation {
      set(index % 2 == 0 ? "255\n" : "0\n")
      Thread.sleep(forTimeInterval: nanoseconds / 1_000_000_000)
    }
  }
  queue.addOperation { set("0\n") }
  queue.waitUntilAllOperationsAreFinished()
}
