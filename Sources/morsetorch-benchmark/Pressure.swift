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
    let unitMilliseconds = Double(unit / .microseconds(1)) / 1000
    print(
      "pressure: send --unit \(unit.millisecondsText) \"\(text)\" (\(length.millisecondsText) ms)"
        + " in a memory cgroup with cat re-reading a \(fileMegabytes) MB file and `hog` touching"
        + " (limit - 8) MB; shortest element's share of its nominal length (as ms of a \(unit.millisecondsText) ms unit), \(rounds) runs each; mlockall as root, or denied"
    )
    for limit in limits {
      for locked in [true, false] {
        var shortest: [Double] = []
        var notes: [String] = []
        for _ in 0..<rounds {
          if !keepCache { dropFromPageCache(binary) }
          let send =
            (locked ? [] : denied) + [
              binary, "send", "--led", "bench", "--unit", String(Int(unitMilliseconds)), "--", text,
            ]
          // Limit 0: the baseline, no cgroup and nothing else running.
          let cgroup = limit > 0 ? MemoryCgroup(limitMegabytes: limit) : nil
          if limit > 0 && cgroup == nil { return }
          defer { cgroup?.remove() }
          var stressors: [Int32] = []
          if let cgroup {
            dropFromPageCache(big)
            for (script, arguments) in [
              ("while :; do cat \"$1\" >/dev/null; done", [big]),
              ("while :; do \"$1\" \"$2\"; done", [hog, String(max(4, limit - 8))]),
            ] {
              let command = inCgroup(cgroup, script, arguments)
              stressors.append(
                try spawnQuietly(
                  command[0], environment: ProcessInfo.processInfo.environment,
                  Array(command.dropFirst())))
            }
            usleep(1_000_000)  // the squeeze under way
          }
          let before = cgroup?.counters()
          let sender = Contender(
            name: "send", missing: nil,
            command: { _, _ in cgroup.map { inCgroup($0, "exec \"$@\"", send) } ?? send })
          let result = try run(sender, steps: steps, launcher: launcher)
          let after = cgroup?.counters()
          cgroup?.remove()
          for pid in stressors { _ = try? ChildProcess.waitForExit(pid) }
          guard let result else { continue }
          shortest.append(result.shortestShare)
          var note = "\(result.seen)/\(result.expected) edges, exit \(result.exitStatus)"
          if let before, let after {
            note +=
              ", limit hit \(after.limitHits - before.limitHits)×, "
              + "\(after.majorFaults - before.majorFaults) major faults"
          }
          notes.append(note)
        }
        let label =
          (limit > 0 ? "\(limit) MB, " : "no pressure, ")
          + (locked ? "mlockall (root)" : "no mlockall")
        let values = shortest.map { String(format: "%.1f", $0 * unitMilliseconds) }
        let worst = shortest.min() ?? .nan
        print(
          "  \(label.padding(toLength: 26, withPad: " ", startingAt: 0)) shortest "
            + values.joined(separator: ", ") + " ms of \(Int(unitMilliseconds))"
            + (worst < 0.75 ? " (UNDER 3/4)" : "") + "; " + notes.joined(separator: "; "))
      }
    }
  }
}
