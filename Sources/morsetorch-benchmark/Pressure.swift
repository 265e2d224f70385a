import Foundation
import LinuxSystem
import MorseCore

/// A memory cgroup made for one run, below the benchmark's own (v1's memory controller, or
/// cgroup v2), with a limit; its processes are killed and it is removed by `remove()`.
struct MemoryCgroup {
  let path: String
  let isVersion2: Bool

  /// Nil, with the reason printed, when no memory controller can be used here.
  init?(limitMegabytes: Int) {
    // /proc/self/cgroup: "ID:CONTROLLERS:PATH" per hierarchy; v2's is "0::PATH".
    let lines = ((try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? "")
      .split(separator: "\n").map {
        $0.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      }
    func own(_ controller: String) -> String? {
      lines.first { $0.count == 3 && $0[1].split(separator: ",").contains { $0 == controller } }
        .map { String($0[2]) }
    }
    let unified = lines.first { $0.count == 3 && $0[0] == "0" && $0[1].isEmpty }.map {
      String($0[2])
    }
    let name = "/morsetorch-pressure-\(getpid())-\(limitMegabytes)"
    let bytes = String(limitMegabytes << 20)
    var limits: [(String, String)]
    if FileManager.default.fileExists(atPath: "/sys/fs/cgroup/memory/memory.limit_in_bytes"),
      let parent = own("memory")
    {
      path = "/sys/fs/cgroup/memory" + (parent == "/" ? "" : parent) + name
      isVersion2 = false
      limits = [("memory.limit_in_bytes", bytes)]
    } else if let parent = unified,
      (try? String(contentsOfFile: "/sys/fs/cgroup/cgroup.controllers", encoding: .utf8))?
        .contains("memory") == true
    {
      path = "/sys/fs/cgroup" + (parent == "/" ? "" : parent) + name
      isVersion2 = true
      limits = [("memory.max", bytes), ("memory.high", String((limitMegabytes << 20) * 7 / 8))]
    } else {
      print("pressure: no memory cgroup controller found under /sys/fs/cgroup")
      return nil
    }
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
      for (file, value) in limits {
        try value.write(toFile: path + "/" + file, atomically: false, encoding: .utf8)
      }
    } catch {
      print("pressure: cannot make the cgroup \(path): \(error)")
      try? FileManager.default.removeItem(atPath: path)
      return nil
    }
  }

  var processes: String { path + "/cgroup.procs" }

  /// While `body` runs, the largest `VmLck` (kB) of a `morsetorch` in the cgroup, looked at
  /// every 20 ms: whether the sender locked its memory (it does not under a limit close to
  /// its size: `TimingPriority.largestLockedShareOfLimit`).
  func largestLockedKilobytes<Result>(during body: () throws -> Result) rethrows
    -> (Result, locked: Int?)
  {
    let sampler = LockedMemorySampler(processes: processes)
    let thread = Thread { sampler.run() }
    thread.start()
    defer { sampler.stop() }
    let result = try body()
    return (result, sampler.largest)
  }

  /// Counters that show the squeeze: times the limit was hit and major faults.
  func counters() -> (limitHits: Int, majorFaults: Int) {
    func value(_ file: String, _ name: String) -> Int {
      let text = (try? String(contentsOfFile: path + "/" + file, encoding: .utf8)) ?? ""
      if name.isEmpty { return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 }
      let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") } ?? ""
      return Int(line.split(separator: " ").last ?? "") ?? 0
    }
    return isVersion2
      ? (
        value("memory.events", "high") + value("memory.events", "max"),
        value("memory.stat", "pgmajfault")
      )
      : (value("memory.failcnt", ""), value("memory.stat", "total_pgmajfault"))
  }

  /// Kills every process in the cgroup (all started by this benchmark) and removes it.
  func remove() {
    for _ in 0..<50 {
      let pids = ((try? String(contentsOfFile: processes, encoding: .utf8)) ?? "")
        .split(separator: "\n").compactMap { Int32($0) }
      if pids.isEmpty { break }
      for pid in pids { kill(pid, SIGKILL) }
      usleep(20_000)
    }
    rmdir(path)
  }
}

/// Reads, every 20 ms until stopped, the `VmLck` of each `morsetorch` among `processes` (a
/// cgroup's `cgroup.procs`), keeping the largest.
final class LockedMemorySampler: @unchecked Sendable {
  private let processes: String
  private let lock = NSLock()
  private var isStopped = false
  private var largestSeen: Int?

  init(processes: String) { self.processes = processes }

  /// The largest `VmLck` seen, kB; nil if no morsetorch was seen.
  var largest: Int? { lock.withLock { largestSeen } }

  func stop() { lock.withLock { isStopped = true } }

  func run() {
    while !lock.withLock({ isStopped }) {
      let pids = ((try? String(contentsOfFile: processes, encoding: .utf8)) ?? "")
        .split(separator: "\n")
      for pid in pids {
        let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
        guard comm == "morsetorch\n",
          let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmLck:") }),
          let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { continue }
        lock.withLock { largestSeen = max(largestSeen ?? 0, kilobytes) }
      }
      usleep(20_000)
    }
  }
}

/// Drops a file's pages from the page cache (`posix_fadvise(POSIX_FADV_DONTNEED)`), so that
/// the next reader brings them in again and they are charged to the reader's cgroup (a page
/// stays charged to the cgroup that first read it).
func dropFromPageCache(_ path: String) {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return }
  fsync(descriptor)  // dirty pages are not dropped
  _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
  close(descriptor)
}

/// `/bin/sh -c` that moves itself into `cgroup` and then runs the rest (`"$@"`).
func inCgroup(_ cgroup: MemoryCgroup, _ script: String, _ arguments: [String]) -> [String] {
  ["/bin/sh", "-c", "echo $$ >\"$0\" && " + script, cgroup.processes] + arguments
}

/// `pressure`: `send --unit UNIT TEXT` inside a memory cgroup of each limit while, in the same
/// cgroup, one process re-reads a big file and another allocates and touches memory; the
/// shortest element against its nominal length (edges seen from outside by inotify), with
/// mlockall (as root) and without (no CAP_IPC_LOCK, RLIMIT_MEMLOCK 0).
///
/// The executable is dropped from the page cache before each run, so its pages are read again
/// and charged to the squeezed cgroup; with `keepCache` they stay charged to whichever cgroup
/// read them first (here the benchmark's), and the squeeze never takes them.
func runPressure(
  limits: [Int], unit: Duration, text: String, rounds: Int, fileMegabytes: Int, keepCache: Bool
) throws {
  guard getuid() == 0 else {
    print("pressure: needs root (a memory cgroup of its own)")
    return
  }
  guard let denied = withoutMemoryLocking() else {
    print("pressure: needs setpriv (util-linux) to run morsetorch without mlockall")
    return
  }
  try withLauncher("pressure") { scratch, launcher in
    // A copy of its own: pages another process maps (a morsetorch running meanwhile) cannot
    // be dropped from the page cache.
    let binary = scratch + "/morsetorch"
    try FileManager.default.copyItem(atPath: morsetorchPath, toPath: binary)
    guard let hog = buildC("hog", into: scratch) else {
      print("pressure: cannot build C/hog.c (needs cc)")
      return
    }
    // On the disk, not tmpfs: without swap, only file pages that can be read again are
    // reclaimed.
    let big = "/var/tmp/morsetorch-pressure-\(getpid()).bin"
    defer { unlink(big) }
    let dd = try spawnQuietly(
      "/bin/dd", environment: [:],
      ["if=/dev/zero", "of=\(big)", "bs=1M", "count=\(fileMegabytes)", "conv=fsync"])
    _ = try ChildProcess.waitForExit(dd)
    let timing = MorseTiming(unit: unit)
    let steps = Array(MorseSteps(try MorseMessage(text), timing: timing))
    let length = steps.reduce(Duration.zero) { $0 + $1.duration }
    let setup = PressureSetup(
      binary: binary, hog: hog, big: big, denied: denied, text: text, steps: steps,
      unitMilliseconds: Double(unit / .microseconds(1)) / 1000, launcher: launcher,
      keepCache: keepCache)
    print(
      "pressure: send --unit \(unit.millisecondsText) \"\(text)\" (\(length.millisecondsText) ms)"
        + " in a memory cgroup with cat re-reading a \(fileMegabytes) MB file and `hog` touching"
        + " (limit - 8) MB; shortest element's share of its nominal length (as ms of a \(unit.millisecondsText) ms unit), \(rounds) runs each; as root (which locks its memory unless the limit is close: VmLck says), or with locking denied"
    )
    for limit in limits {
      for locked in [true, false] {
        guard try runPressureRow(setup, limit: limit, locked: locked, rounds: rounds) else {
          return
        }
      }
    }
  }
}

/// What every run of `pressure` shares.
struct PressureSetup {
  /// The copy of morsetorch that sends.
  let binary: String
  /// C/hog.c, built.
  let hog: String
  /// The file cat re-reads.
  let big: String
  /// The command that runs the rest without mlockall.
  let denied: [String]
  let text: String
  let steps: [MorseStep]
  let unitMilliseconds: Double
  let launcher: String
  let keepCache: Bool
}

/// How one run of `pressure` went.
enum PressureRound {
  /// The memory cgroup could not be made (the reason printed): the benchmark ends.
  case noCgroup
  /// The launcher reported nothing.
  case noResult
  /// The shortest element's share of its nominal length, and the edges seen, the exit status
  /// and the cgroup's counters.
  case measured(shortest: Double, note: String)
}

/// `rounds` runs under `limit` MB (0: no cgroup), with mlockall or without, and their line;
/// false, with no line, when a cgroup could not be made.
func runPressureRow(_ setup: PressureSetup, limit: Int, locked: Bool, rounds: Int) throws -> Bool {
  var shortest: [Double] = []
  var notes: [String] = []
  for _ in 0..<rounds {
    switch try runPressureRound(setup, limit: limit, locked: locked) {
    case .noCgroup: return false
    case .noResult: continue
    case .measured(let share, let note):
      shortest.append(share)
      notes.append(note)
    }
  }
  let label =
    (limit > 0 ? "\(limit) MB, " : "no pressure, ")
    + (locked ? "root (may lock)" : "locking denied")
  let values = shortest.map { String(format: "%.1f", $0 * setup.unitMilliseconds) }
  let worst = shortest.min() ?? .nan
  print(
    "  \(label.padding(toLength: 26, withPad: " ", startingAt: 0)) shortest "
      + values.joined(separator: ", ") + " ms of \(Int(setup.unitMilliseconds))"
      + (worst < 0.75 ? " (UNDER 3/4)" : "") + "; " + notes.joined(separator: "; "))
  return true
}

/// One run of `send` under `limit` MB (0: the baseline, no cgroup and nothing else running).
func runPressureRound(_ setup: PressureSetup, limit: Int, locked: Bool) throws -> PressureRound {
  if !setup.keepCache { dropFromPageCache(setup.binary) }
  let send =
    (locked ? [] : setup.denied) + [
      setup.binary, "send", "--led", "bench", "--unit", String(Int(setup.unitMilliseconds)),
      "--", setup.text,
    ]
  let cgroup = limit > 0 ? MemoryCgroup(limitMegabytes: limit) : nil
  if limit > 0 && cgroup == nil { return .noCgroup }
  defer { cgroup?.remove() }
  let stressors = try cgroup.map { try startStressors(in: $0, setup, limit: limit) } ?? []
  let before = cgroup?.counters()
  let sender = Contender(
    name: "send", missing: nil,
    command: { _, _ in cgroup.map { inCgroup($0, "exec \"$@\"", send) } ?? send })
  var lockedKilobytes: Int?
  let result: ContenderResult?
  if let cgroup {
    (result, lockedKilobytes) = try cgroup.largestLockedKilobytes {
      try run(sender, steps: setup.steps, launcher: setup.launcher)
    }
  } else {
    result = try run(sender, steps: setup.steps, launcher: setup.launcher)
  }
  let after = cgroup?.counters()
  cgroup?.remove()
  for pid in stressors { _ = try? ChildProcess.waitForExit(pid) }
  guard let result else { return .noResult }
  var note = "\(result.seen)/\(result.expected) edges, exit \(result.exitStatus)"
  if let lockedKilobytes { note += ", VmLck \(lockedKilobytes) kB" }
  if let before, let after {
    note +=
      ", limit hit \(after.limitHits - before.limitHits)×, "
      + "\(after.majorFaults - before.majorFaults) major faults"
  }
  return .measured(shortest: result.shortestShare, note: note)
}

/// In `cgroup`, cat re-reading the big file and `hog` touching (limit - 8) MB, each in a loop;
/// their pids, a second after they started (the squeeze under way).
func startStressors(in cgroup: MemoryCgroup, _ setup: PressureSetup, limit: Int) throws
  -> [Int32]
{
  dropFromPageCache(setup.big)
  var stressors: [Int32] = []
  for (script, arguments) in [
    ("while :; do cat \"$1\" >/dev/null; done", [setup.big]),
    ("while :; do \"$1\" \"$2\"; done", [setup.hog, String(max(4, limit - 8))]),
  ] {
    let command = inCgroup(cgroup, script, arguments)
    stressors.append(
      try spawnQuietly(
        command[0], environment: ProcessInfo.processInfo.environment,
        Array(command.dropFirst())))
  }
  usleep(1_000_000)  // the squeeze under way
  return stressors
}
