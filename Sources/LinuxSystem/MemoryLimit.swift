import Glibc

/// The memory limits this process lives under (its memory cgroup and every one above it),
/// and its own resident size: what tells whether locking its memory is safe.
///
/// Locked pages cannot be reclaimed: in a cgroup whose limit is not far above what the
/// process locks, the limit's pressure falls on its neighbours and its own allocations, and
/// the cgroup's OOM killer picks the process that holds the most, which the locking made it.
public enum MemoryLimit {
  /// The smallest memory limit of this process's cgroups, in bytes: cgroup v2's
  /// `memory.max` and `memory.high`, or v1's `memory.limit_in_bytes`, of its own cgroup and
  /// each above it; nil when none is set (or none can be read).
  public static func smallestLimit(
    cgroupFile: String = "/proc/self/cgroup", root: String = "/sys/fs/cgroup"
  ) -> UInt64? {
    var limits: [UInt64] = []
    for line in lines(cgroupFile) {
      let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3, fields[2].hasPrefix("/") else { continue }
      let controllers = fields[1].split(separator: ",")
      if fields[0] == "0" && fields[1].isEmpty {
        // v2: the unified hierarchy, at the root or (hybrid) at unified/.
        for mount in [root, root + "/unified"] {
          limits += limitsUp(from: mount, String(fields[2]), files: ["memory.max", "memory.high"])
        }
      } else if controllers.contains("memory") {
        limits += limitsUp(
          from: root + "/memory", String(fields[2]), files: ["memory.limit_in_bytes"])
      }
    }
    return limits.min()
  }

  /// This process's resident size in bytes (`/proc/self/statm`); nil if it cannot be read.
  public static func residentBytes(statm: String = "/proc/self/statm") -> UInt64? {
    let fields = lines(statm).first?.split(separator: " ") ?? []
    guard fields.count > 1, let pages = UInt64(fields[1]) else { return nil }
    return pages * UInt64(sysconf(Int32(_SC_PAGESIZE)))
  }

  /// What locking this process's memory as it is touched (`mlockall` with `MCL_ONFAULT`)
  /// may come to hold: its executable's size (what its code can fault in; a static
  /// executable has no other) or what it holds now, whichever is more.
  public static func lockableBytes(
    executable: String = "/proc/self/exe", statm: String = "/proc/self/statm"
  ) -> UInt64 {
    let code = (try? FileSystem.status(executable)).map { UInt64(max(0, $0.size)) } ?? 0
    return max(code, residentBytes(statm: statm) ?? 0)
  }

  /// The limits in `files` of the cgroup at `path` under `mount` and of each above it; a
  /// value of "max", or v1's near-2^63 "unlimited", is none.
  private static func limitsUp(from mount: String, _ path: String, files: [String]) -> [UInt64] {
    var limits: [UInt64] = []
    var components = path.split(separator: "/").map(String.init)
    while true {
      let directory = mount + (components.isEmpty ? "" : "/" + components.joined(separator: "/"))
      for file in files {
        if let value = lines(directory + "/" + file).first.flatMap({ UInt64($0) }),
          value < 1 << 62
        {
          limits.append(value)
        }
      }
      guard !components.isEmpty else { return limits }
      components.removeLast()
    }
  }

  private static func lines(_ path: String) -> [Substring] {
    guard let bytes = try? FileSystem.readFile(path) else { return [] }
    return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
  }
}
