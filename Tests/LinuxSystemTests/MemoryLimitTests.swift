import Foundation
import MorseTestSupport
import Synchronization
import Testing

@testable import LinuxSystem

@Suite struct MemoryLimitTests {
  /// `count` MB in bytes. (Typed: Swift 6.0.3 crashes on `#expect(optional == 16 << 20)`.)
  private static func megabytes(_ count: UInt64) -> UInt64 { count << 20 }

  /// `files` (path under the directory: content) written, and `/proc/self/cgroup` as `cgroup`.
  private func hierarchy(_ cgroup: String, _ files: [String: String]) throws -> TemporaryDirectory
  {
    let directory = try TemporaryDirectory("memory-limit")
    for (path, content) in files.merging(["proc-cgroup": cgroup], uniquingKeysWith: { $1 }) {
      let full = directory.path + "/" + path
      try FileManager.default.createDirectory(
        atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(content.utf8).write(to: URL(fileURLWithPath: full))
    }
    return directory
  }

  private func smallest(_ directory: TemporaryDirectory) -> UInt64? {
    MemoryLimit.smallestLimit(
      cgroupFile: directory.path + "/proc-cgroup", root: directory.path + "/cgroup")
  }

  @Test func theSmallestLimitOfTheCgroupAndThoseAboveItCounts() throws {
    let v2 = try hierarchy(
      "0::/system.slice/beacon.service\n",
      [
        "cgroup/memory.max": "max\n",
        "cgroup/system.slice/memory.max": "\(64 << 20)\n",
        "cgroup/system.slice/beacon.service/memory.max": "max\n",
        "cgroup/system.slice/beacon.service/memory.high": "\(96 << 20)\n",
      ])
    #expect(smallest(v2) == Self.megabytes(64))
    let v1 = try hierarchy(
      "9:name=systemd:/\n4:cpu,memory:/box\n0::/\n",
      [
        "cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
        "cgroup/memory/box/memory.limit_in_bytes": "\(16 << 20)\n",
      ])
    #expect(smallest(v1) == Self.megabytes(16))
    let hybrid = try hierarchy("0::/user\n", ["cgroup/unified/user/memory.max": "\(24 << 20)\n"])
    #expect(smallest(hybrid) == Self.megabytes(24))
  }

  @Test func noLimitIsNone() throws {
    let unlimited = try hierarchy(
      "0::/a\n", ["cgroup/memory.max": "max\n", "cgroup/a/memory.max": "max\n"])
    #expect(smallest(unlimited) == nil)
    let unreadable = try hierarchy("garbage", [:])
    #expect(smallest(unreadable) == nil)
  }

  @Test func whatMayBeLockedIsTheExecutableOrWhatIsHeldWhicheverIsMore() throws {
    let page = UInt64(sysconf(Int32(_SC_PAGESIZE)))
    let directory = try hierarchy(
      "", ["statm": "2000 300 100 50 0 200 0\n", "exe": String(repeating: "x", count: 5000)])
    let statm = directory.path + "/statm"
    #expect(MemoryLimit.residentBytes(statm: statm) == 300 * page)
    #expect(MemoryLimit.residentBytes() ?? 0 > 0)
    let small = directory.path + "/exe"
    #expect(MemoryLimit.lockableBytes(executable: small, statm: statm) == 300 * page)
    let big = try hierarchy("", ["exe": String(repeating: "x", count: 400 * Int(page))])
    #expect(
      MemoryLimit.lockableBytes(executable: big.path + "/exe", statm: statm) == 400 * page)
  }

  @Test func lockingIsDeclinedUnderALimitLessThanFourTimesWhatWouldBeLocked() {
    let lockable = Self.megabytes(6)
    let tight = Self.megabytes(16)
    let (justUnder, enough) = (Self.megabytes(24) - 1, Self.megabytes(24))
    #expect(TimingPriority.limitTooClose(tight, toLocking: lockable) == tight)
    #expect(TimingPriority.limitTooClose(justUnder, toLocking: lockable) == justUnder)
    #expect(TimingPriority.limitTooClose(enough, toLocking: lockable) == nil)
    #expect(TimingPriority.limitTooClose(nil, toLocking: lockable) == nil)
  }

  /// Declined, the sender does not lock its memory, and says why. (A limit that allows it is
  /// not tried here: it would lock the test runner's memory.)
  @Test func aSenderUnderATightLimitRunsUnlockedAndSaysSo() throws {
    let got = Mutex<TimingPriority?>(nil)
    let done = OneShotEvent()
    try Threads.start {
      got.withLock {
        $0 = TimingPriority.raiseForCurrentThread(
          limit: Self.megabytes(16), lockable: Self.megabytes(6))
      }
      done.fire()
    }
    done.wait()
    let priority = try #require(got.withLock { $0 })
    #expect(!priority.isMemoryLocked)
    #expect(priority.lockingDeclinedUnderLimit == Self.megabytes(16))
    #expect(priority.description.hasSuffix("memory not locked (under a 16 MB limit)"))
  }
}
