import DeviceContract
// The performance figures of morsetorch, printed (never asserted in unit tests: the machines
// that run the tests are shared and noisy).
//
//   swift run -c release morsetorch-benchmark [report|compare|serial|startup|edges|cancel|throughput|loop|memory|pressure|all|corpus]
//       [--tries N] [--text TEXT] [--units MS,MS] [--megabytes N] [--morsetorch PATH] [--seed N]
//       [--minutes N] [--limits MB,MB] [--unit MS] [--rounds N] [--keep-cache] [--port PATH]
//
// report: compare, startup, cancel, throughput and memory: Sources/morsetorch-benchmark/README.md.
// compare: morsetorch send, a shell loop of echo and sleep, a serial queue of relative sleeps,
//         python-periphery's LED with time.sleep and a C writer at absolute deadlines, each on
//         a temporary LED whose writes are timestamped from outside (inotify), at 60 ms and
//         1 ms units: edges, median/p99/max error, drift, CPU share, peak RSS, exec to the
//         first edge.
// serial: morsetorch send --serial PORT:rts beside a C writer at absolute deadlines on a real
//         serial port (--port, default /dev/ttyS0), RTS sampled every 50 us from outside, at
//         `--units`: the same columns as compare.
// startup: exec to the first edge of morsetorch send and of the C floor, `--tries` runs each,
//         alternately: median, p10, p90, and the ratio of the medians.
// throughput: `encode` beside bsdgames `morse -s` on the same text, and `send --dry-run`,
//         with wall time, MB/s of input and peak RSS.
//
// edges:  the real scheduler on the monotonic clock, driving (a) a torch that only takes
//         timestamps and (b) the sysfs driver on plain files; every edge's lateness against
//         its absolute deadline, and the drift from the first edge to the last.
// loop:   `--loop` of SOS for an hour of virtual time; the memory held after a minute and
//         after the hour.
// memory: the executable's size; the private memory (Anonymous of /proc/PID/smaps_rollup)
//         and locked memory (VmLck) of `send` (as root, and with mlockall denied) and of
//         `receive --edges`, sampled while each runs; `send --loop --unit 1` for `--minutes`
//         (default 2): RSS, private memory, descriptors and threads at the start and the end.
// pressure (root): `send --unit 20` (`--unit`) in a memory cgroup of each of `--limits` MB
//         (0,16,24,64; 0: the baseline, no cgroup and nothing beside it) beside a process
//         re-reading a 512 MB file and one touching memory: the shortest element against its
//         nominal length, with mlockall and without, `--rounds` runs each; the executable
//         dropped from the page cache first (`--keep-cache`: not).
// corpus: the receiver on the seeded corpus of Tests/Support/ReceiverCorpus.swift (ideal
//         timing 5-40 WPM, hand keying, speed changes, Farnsworth, bounce, a noisy light),
//         with and without the speed, beside libcw and multimon-ng: character error rates.
// cancel: the built `morsetorch` (release, next to this binary) sending on a temporary LED;
//         a second `morsetorch send` is started at a random moment; the time from its start
//         to the LED being off with its trigger restored.
import Foundation
import Instants
import LEDDriver
import LinuxSystem
import MorseCore
import MorseCorpus
import MorsePlayer

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
  guard !sorted.isEmpty else { return .nan }
  let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))
  return sorted[index]
}

func format(_ value: Double) -> String { String(format: "%.3f", value) }

/// A temporary LED directory of plain files, like the tests' fixture.
///
/// On tmpfs (/dev/shm) when there is one: sysfs attributes live in memory too, while a plain
/// file on ext4 that is truncated and rewritten is flushed on close (auto_da_alloc), which
/// adds milliseconds no LED would show.
func makeLEDDirectory() throws -> (root: String, leds: String) {
  let base =
    FileManager.default.fileExists(atPath: "/dev/shm")
    ? "/dev/shm" : FileManager.default.temporaryDirectory.path
  let root = base + "/morsetorch-bench-" + UUID().uuidString
  let device = root + "/devices/bench"
  try FileManager.default.createDirectory(atPath: device, withIntermediateDirectories: true)
  try FileManager.default.createDirectory(atPath: root + "/leds", withIntermediateDirectories: true)
  try FileManager.default.createDirectory(atPath: root + "/run", withIntermediateDirectories: true)
  for (name, content) in [
    ("max_brightness", "255\n"), ("brightness", "0\n"), ("trigger", "none [timer] heartbeat\n"),
    ("delay_on", "500\n"), ("delay_off", "500\n"),
  ] {
    try content.write(toFile: device + "/" + name, atomically: false, encoding: .utf8)
  }
  try FileManager.default.createSymbolicLink(
    atPath: root + "/leds/bench", withDestinationPath: device)
  return (root, root + "/leds")
}

func measureEdges(label: String, torch: any Torch, text: String, timing: MorseTiming) throws {
  let recorder = TimestampingTorch(torch)
  let clock = SystemStepClock()
  let steps = Array(MorseSteps(try MorseMessage(text), timing: timing))
  var deadlines: [MonotonicInstant] = []
  let start = clock.now() + .milliseconds(50)
  var deadline = start
  for step in steps {
    deadlines.append(deadline)
    deadline = deadline + step.duration
  }
  deadlines.append(deadline)  // the final switch off
  let outcome = try StepScheduler(clock: clock, cancellation: Cancellation()).run(
    steps, on: recorder, startingAt: start)
  guard case .completed = outcome, recorder.times.count == deadlines.count else {
    print("\(label): unexpected outcome \(outcome), \(recorder.times.count) edges")
    return
  }
  let errors = zip(recorder.times, deadlines).map { actual, scheduled in
    Double((actual - scheduled) / .nanoseconds(1)) / 1_000_000
  }
  let sorted = errors.sorted()
  let drift = (errors.last ?? 0) - (errors.first ?? 0)
  print(
    "\(label): \(errors.count) edges over \((deadline - start).millisecondsText) ms; "
      + "lateness ms: median \(format(percentile(sorted, 0.5))), "
      + "p99 \(format(percentile(sorted, 0.99))), max \(format(sorted.last ?? .nan)), "
      + "min \(format(sorted.first ?? .nan)); drift first->last \(format(drift)) ms")
}

func runEdges() throws {
  let text = "PARIS PARIS PARIS"
  let timing = try MorseTiming(wordsPerMinute: 20)
  print("edges: \"\(text)\" at 20 WPM (60 ms unit), SystemStepClock (CLOCK_MONOTONIC)")
  let directory = try makeLEDDirectory()
  defer { try? FileManager.default.removeItem(atPath: directory.root) }
  let led = try LEDClassDirectory(path: directory.leds).led(named: "bench")
  let torch = try SysfsTorch(led: led)
  defer { try? torch.restore() }
  // First as a plain thread, then as `send` runs: least timer slack, and SCHED_FIFO and
  // locked memory where this user may have them.
  for raised in [false, true] {
    let how =
      raised ? "as send runs (\(TimingPriority.raiseForCurrentThread()))" : "plain thread"
    print("  \(how):")
    try measureEdges(
      label: "    timestamp-only torch", torch: VirtualTorch(), text: text, timing: timing)
    try measureEdges(
      label: "    sysfs driver, plain files", torch: torch, text: text, timing: timing)
  }
}

func readAttribute(_ path: String) -> String {
  let descriptor = open(path, O_RDONLY)
  guard descriptor >= 0 else { return "" }
  defer { close(descriptor) }
  var buffer = [UInt8](repeating: 0, count: 64)
  let count = read(descriptor, &buffer, buffer.count)
  guard count > 0 else { return "" }
  return String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(
    in: .whitespacesAndNewlines)
}

/// Waits (up to 10 s after `start`) until the LED at `device` is off with its trigger back;
/// inotify wakes the benchmark at each write that completes (IN_CLOSE_WRITE), so it takes no
/// CPU from the two processes being measured, and misses no moment.
func waitUntilRestored(_ device: String, watch: Int32, from start: MonotonicInstant)
  -> MonotonicInstant?
{
  let clock = SystemStepClock()
  while clock.now() < start + .seconds(10) {
    if readAttribute(device + "/trigger") == "timer" && readAttribute(device + "/brightness") == "0"
    {
      return clock.now()
    }
    var request = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
    if poll(&request, 1, 100) > 0 {
      var events = [UInt8](repeating: 0, count: 4096)
      _ = read(watch, &events, events.count)
    }
  }
  return nil
}

/// Starts `binary ARGUMENTS…` with its output and errors on /dev/null, with `posix_spawn`
/// directly: Foundation's `Process` does much more before the child runs, which would be
/// counted against morsetorch.
func spawnQuietly(_ binary: String, environment: [String: String], _ arguments: [String])
  throws -> Int32
{
  let null = try FileDescriptor.open("/dev/null", .writeOnly)
  var descriptors = SpawnDescriptors()
  descriptors.give(null, as: 1)
  descriptors.give(null, as: 2)
  return try ChildProcess.spawn(
    binary, arguments: [binary] + arguments, environment: environment, descriptors: descriptors,
    defaultSignals: [])
}

func runCancel(tries: Int) throws {
  let binary = morsetorchPath
  guard FileManager.default.isExecutableFile(atPath: binary) else {
    print("cancel: \(binary) not found; build it first (swift build -c release)")
    return
  }
  let directory = try makeLEDDirectory()
  defer { try? FileManager.default.removeItem(atPath: directory.root) }
  let device = directory.root + "/devices/bench"
  var environment = ProcessInfo.processInfo.environment
  environment["MORSETORCH_LEDS_DIR"] = directory.leds
  environment["MORSETORCH_RUNTIME_DIR"] = directory.root + "/run"
  let clock = SystemStepClock()
  let watch = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
  guard watch >= 0, inotify_add_watch(watch, device, UInt32(IN_CLOSE_WRITE)) >= 0 else {
    print("cancel: inotify is not available here")
    return
  }
  defer { close(watch) }
  var latencies: [Double] = []
  var midDash = 0
  var failures = 0
  for _ in 0..<tries {
    try "[timer]\n".write(toFile: device + "/trigger", atomically: false, encoding: .utf8)
    try "0\n".write(toFile: device + "/brightness", atomically: false, encoding: .utf8)
    let holder = try spawnQuietly(
      binary, environment: environment, ["send", "--led", "bench", "--unit", "100", "TTTTT"])
    let limit = clock.now() + .seconds(10)
    while readAttribute(device + "/brightness") != "255" && clock.now() < limit { usleep(100) }
    // Somewhere in the first second and a half: in a dash (300 ms on) or in a gap.
    usleep(UInt32.random(in: 0...1_500_000))
    let wasOn = readAttribute(device + "/brightness") == "255"
    var drain = [UInt8](repeating: 0, count: 4096)
    while read(watch, &drain, drain.count) > 0 {}
    let start = clock.now()
    let canceller = try spawnQuietly(
      binary, environment: environment, ["send", "--led", "bench", "x"])
    let restoredAt = waitUntilRestored(device, watch: watch, from: start)
    let cancellerStatus = try ChildProcess.waitForExit(canceller)
    let holderStatus = try ChildProcess.waitForExit(holder)
    // A rerun that cancelled exits 4 (nothing of its own was sent).
    guard let restoredAt, cancellerStatus == 4, holderStatus == 143 else {
      failures += 1
      continue
    }
    if wasOn { midDash += 1 }
    latencies.append(Double((restoredAt - start) / .nanoseconds(1)) / 1_000_000)
  }
  let sorted = latencies.sorted()
  print(
    "cancel: \(latencies.count) tries (\(midDash) with the LED on, \(failures) failed); "
      + "start of 2nd morsetorch -> LED off and trigger restored, ms: "
      + "median \(format(percentile(sorted, 0.5))), p99 \(format(percentile(sorted, 0.99))), "
      + "max \(format(sorted.last ?? .nan))")
  if ProcessInfo.processInfo.environment["BENCHMARK_VERBOSE"] != nil {
    print("  all: " + latencies.map(format).joined(separator: " "))
  }
}

// Each line as it is printed, also into a pipe or a log: the runs take minutes.
StandardStreams.lineBufferPrint()
if CommandLine.arguments.dropFirst().first == "relative-queue" {
  runRelativeQueue(Array(CommandLine.arguments.dropFirst(2)))
  exit(0)
}
var mode = "all"
var tries = 50
var text = "PARIS PARIS PARIS"
var units: [Duration] = [.milliseconds(60), .milliseconds(1)]
var megabytes = 10
var seed = ReceiverCorpus.defaultSeed
var loopMinutes = 2.0
var limits = [0, 16, 24, 64]
var pressureUnit = 20
var rounds = 3
var keepCache = false
var serialPort = "/dev/ttyS0"
/// The morsetorch under test: `--morsetorch PATH`, or the one built next to this benchmark.
nonisolated(unsafe) var morsetorchPath = URL(fileURLWithPath: CommandLine.arguments[0])
  .deletingLastPathComponent().appendingPathComponent("morsetorch").path
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--tries": tries = Int(arguments.popFirst() ?? "") ?? tries
  case "--text": text = arguments.popFirst() ?? text
  case "--units":
    units = (arguments.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }.map {
      .milliseconds($0)
    }
  case "--megabytes": megabytes = Int(arguments.popFirst() ?? "") ?? megabytes
  case "--seed": seed = UInt64(arguments.popFirst() ?? "") ?? seed
  case "--minutes": loopMinutes = Double(arguments.popFirst() ?? "") ?? loopMinutes
  case "--limits":
    limits = (arguments.popFirst() ?? "").split(separator: ",").compactMap { Int($0) }
  case "--unit": pressureUnit = Int(arguments.popFirst() ?? "") ?? pressureUnit
  case "--rounds": rounds = Int(arguments.popFirst() ?? "") ?? rounds
  case "--keep-cache": keepCache = true
  case "--port": serialPort = arguments.popFirst() ?? serialPort
  case "--morsetorch": morsetorchPath = arguments.popFirst() ?? morsetorchPath
  default: mode = argument
  }
}
do {
  if mode == "compare" || mode == "report" { try runCompare(text: text, units: units) }
  if mode == "serial" { try runSerial(port: serialPort, text: text, units: units) }
  if mode == "edges" || mode == "all" { try runEdges() }
  if mode == "cancel" || mode == "all" || mode == "report" { try runCancel(tries: tries) }
  if mode == "throughput" || mode == "all" || mode == "report" {
    try runThroughput(megabytes: megabytes)
  }
  if mode == "loop" || mode == "all" { try runLoop() }
  if mode == "corpus" { try runCorpus(seed: seed) }
  if mode == "memory" || mode == "all" || mode == "report" {
    try runMemory(loopMinutes: loopMinutes)
  }
  if mode == "pressure" {
    try runPressure(
      limits: limits, unit: .milliseconds(pressureUnit),
      text: text == "PARIS PARIS PARIS" ? "PARIS PARIS PARIS PARIS" : text, rounds: rounds,
      fileMegabytes: 512, keepCache: keepCache)
  }
  if mode == "startup" || mode == "report" { try runStartup(tries: tries) }
} catch {
  print("benchmark failed: \(error)")
  exit(1)
}
