import Foundation
import Instants
import LinuxSystem
import MorsePlayer

/// One look at a running process, from /proc: what it holds as a user pays it.
struct ProcessSample {
  /// `VmRSS` of /proc/PID/status, kB: mostly the executable's clean page-cache pages.
  let residentKilobytes: Int
  /// `Anonymous` of /proc/PID/smaps_rollup, kB: heap, stacks and every page it wrote.
  let anonymousKilobytes: Int
  /// `VmLck` of /proc/PID/status, kB: the size of the mappings mlockall marked locked
  /// (with MCL_ONFAULT, address space, not pages held).
  let lockedKilobytes: Int
  /// `Locked` of smaps_rollup, kB: the pages held in those mappings.
  let lockedResidentKilobytes: Int
  /// Entries of /proc/PID/fd and /proc/PID/task.
  let descriptors: Int
  let threads: Int

  /// Nil when the process is gone (or not readable).
  init?(pid: Int32) {
    func field(_ file: String, _ name: String) -> Int? {
      guard let text = try? String(contentsOfFile: "/proc/\(pid)/\(file)", encoding: .utf8)
      else { return nil }
      let line = text.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
      return Int(line.dropFirst(name.count + 1).split(whereSeparator: \.isWhitespace).first ?? "")
    }
    let files = FileManager.default
    guard let resident = field("status", "VmRSS"), let locked = field("status", "VmLck"),
      let anonymous = field("smaps_rollup", "Anonymous"),
      let lockedResident = field("smaps_rollup", "Locked"),
      let descriptors = try? files.contentsOfDirectory(atPath: "/proc/\(pid)/fd"),
      let threads = try? files.contentsOfDirectory(atPath: "/proc/\(pid)/task")
    else { return nil }
    residentKilobytes = resident
    anonymousKilobytes = anonymous
    lockedKilobytes = locked
    lockedResidentKilobytes = lockedResident
    self.descriptors = descriptors.count
    self.threads = threads.count
  }
}

/// Whether child `pid` has ended (reaped then), without waiting.
func hasExited(_ pid: Int32) -> Bool {
  var status: Int32 = 0
  return waitpid(pid, &status, WNOHANG) == pid
}

/// Samples `pid` every 50 ms from `after` on until it ends (reaped) or `limit` passes.
func samples(of pid: Int32, after: Duration = .milliseconds(200), limit: Duration = .seconds(30))
  -> [ProcessSample]
{
  let clock = SystemStepClock()
  let start = clock.now()
  var taken: [ProcessSample] = []
  while !hasExited(pid) && clock.now() < start + limit {
    if clock.now() >= start + after, let sample = ProcessSample(pid: pid) { taken.append(sample) }
    usleep(50_000)
  }
  return taken
}

/// The prefix that runs a command as root without the right to lock memory: no
/// CAP_IPC_LOCK (setpriv) and an RLIMIT_MEMLOCK of 0, so morsetorch's mlockall fails while
/// SCHED_FIFO stays. Nil when not root (mlockall then depends on RLIMIT_MEMLOCK only) or
/// without setpriv.
func withoutMemoryLocking() -> [String]? {
  guard getuid() == 0, let setpriv = which("setpriv") else { return nil }
  return [
    "/bin/sh", "-c",
    "ulimit -l 0 && exec \"$0\" --bounding-set=-ipc_lock --inh-caps=-ipc_lock \"$@\"",
    setpriv,
  ]
}

let privateTargetKilobytes = 512

/// "private (Anonymous) max 328 kB (target <= 512: ok), VmLck 0 kB (Locked, held: 0 kB), …".
func privateMemoryLine(_ taken: [ProcessSample]) -> String {
  guard let worst = taken.map(\.anonymousKilobytes).max() else {
    return "no sample (ended too soon)"
  }
  let locked = taken.map(\.lockedKilobytes)
  let held = taken.map(\.lockedResidentKilobytes)
  return "private (Anonymous) max \(worst) kB (target <= \(privateTargetKilobytes): "
    + (worst <= privateTargetKilobytes ? "ok" : "OVER") + "), VmLck "
    + "\(locked.max() ?? 0) kB (Locked, held: \(held.max() ?? 0) kB), VmRSS max "
    + "\(taken.map(\.residentKilobytes).max() ?? 0) kB, \(taken.count) samples"
}

/// `memory`: what `send`, `receive --edges` and a long `send --loop` hold, sampled from /proc
/// while each runs, and the executable's size.
func runMemory(loopMinutes: Double) throws {
  let binary = morsetorchPath
  guard FileManager.default.isExecutableFile(atPath: binary) else {
    print("memory: \(binary) not found; build it first (swift build -c release)")
    return
  }
  let size = (try? FileManager.default.attributesOfItem(atPath: binary)[.size] as? Int) ?? 0
  print(
    "memory: \(binary): \(size) bytes (\(String(format: "%.2f", Double(size) / 1_048_576)) MiB)"
      + " on disk; private memory sampled every 50 ms from /proc while it runs")
  let directory = try makeLEDDirectory()
  defer { try? FileManager.default.removeItem(atPath: directory.root) }
  var environment = ProcessInfo.processInfo.environment
  environment["MORSETORCH_LEDS_DIR"] = directory.leds
  environment["MORSETORCH_RUNTIME_DIR"] = directory.root + "/run"
  let send = [binary, "send", "--led", "bench", "--unit", "100", "TT"]
  var variants = [("send --unit 100 TT, \(getuid() == 0 ? "as root" : "as this user")", send)]
  if let prefix = withoutMemoryLocking() {
    variants.append(("send --unit 100 TT, mlockall denied", prefix + send))
  }
  for (label, command) in variants {
    let pid = try spawnQuietly(command[0], environment: environment, Array(command.dropFirst()))
    print("  \(label): \(privateMemoryLine(samples(of: pid)))")
  }
  try measureReceive(binary, environment: environment, scratch: directory.root)
  try measureLoop(binary, environment: environment, minutes: loopMinutes)
}

/// `receive --edges -` fed the edges of `send --dry-run --edges` through a pipe held open
/// for a second, so it is sampled mid-stream.
func measureReceive(_ binary: String, environment: [String: String], scratch: String) throws {
  let edgesPath = scratch + "/edges.txt"
  var toFile = SpawnDescriptors()
  let edgesFile = try FileDescriptor.open(edgesPath, [.writeOnly, .create, .truncate])
  toFile.give(edgesFile, as: 1)
  let maker = try ChildProcess.spawn(
    binary, arguments: [binary, "send", "--dry-run", "--edges", "CQ DE N0CALL"],
    environment: environment, descriptors: toFile, defaultSignals: [])
  _ = try ChildProcess.waitForExit(maker)
  let edges = Array(try String(contentsOfFile: edgesPath, encoding: .utf8).utf8)
  var ends: [Int32] = [-1, -1]
  // Close-on-exec, so that the child holds no write end and sees the end of the stream.
  guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0,
    fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0
  else {
    print("  receive --edges: no pipe")
    return
  }
  let writeEnd = FileDescriptor(owning: ends[1])
  var descriptors = SpawnDescriptors()
  do {
    let readEnd = FileDescriptor(owning: ends[0])
    descriptors.give(readEnd, as: 0)
    let null = try FileDescriptor.open("/dev/null", .writeOnly)
    descriptors.give(null, as: 1)
    let pid = try ChildProcess.spawn(
      binary, arguments: [binary, "receive", "--edges", "-"], environment: environment,
      descriptors: descriptors, defaultSignals: [])
    try writeEnd.writeWhole(edges)
    let taken = samples(of: pid, limit: .seconds(1))
    try writeEnd.close()
    _ = try? ChildProcess.waitForExit(pid)
    print(
      "  receive --edges - (\(edges.count) bytes of edges, mid-stream): "
        + privateMemoryLine(taken))
  }
}

/// `send --loop --unit 1` for `minutes`: RSS, private memory, descriptors and threads at the
/// start and at the end, and whether any grew past a small tolerance.
func measureLoop(_ binary: String, environment: [String: String], minutes: Double) throws {
  let text = "PARIS PARIS"
  let pid = try spawnQuietly(
    binary, environment: environment, ["send", "--led", "bench", "--unit", "1", "--loop", text])
  defer {
    kill(pid, SIGTERM)
    _ = try? ChildProcess.waitForExit(pid)
  }
  usleep(2_000_000)
  guard let first = ProcessSample(pid: pid) else {
    print("  send --loop: ended at once")
    return
  }
  var last = first
  let clock = SystemStepClock()
  let end = clock.now() + .milliseconds(Int64(minutes * 60_000))
  while clock.now() < end {
    let left = (end - clock.now()) / .milliseconds(1)
    usleep(UInt32(max(0, min(10_000, left))) * 1000)
    guard let sample = ProcessSample(pid: pid) else {
      print("  send --loop: ended before \(minutes) min")
      return
    }
    last = sample
  }
  // Pages come and go by whole pages, so a few are noise; anything kept per round is not.
  let toleranceKilobytes = 64
  let grown = [
    ("VmRSS", first.residentKilobytes, last.residentKilobytes, toleranceKilobytes, " kB"),
    ("Anonymous", first.anonymousKilobytes, last.anonymousKilobytes, toleranceKilobytes, " kB"),
    ("descriptors", first.descriptors, last.descriptors, 0, ""),
    ("threads", first.threads, last.threads, 0, ""),
  ].map { name, before, after, tolerance, unit in
    "\(name) \(before) -> \(after)\(unit)" + (after - before > tolerance ? " GREW" : "")
  }
  print(
    "  send --loop --unit 1 \"\(text)\", \(String(format: "%g", minutes)) min (from 2 s in): "
      + grown.joined(separator: ", ") + " (tolerance \(toleranceKilobytes) kB, 0 descriptors"
      + " or threads)")
}
