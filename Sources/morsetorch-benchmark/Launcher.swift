import Foundation
import LinuxSystem

/// What a sender used, as the `usage` launcher (C/usage.c) reports it from `wait4(2)`: its
/// own and its waited-for children's CPU time, and its own peak resident memory.
struct SenderUsage {
  let userTime: Duration
  let systemTime: Duration
  let peakResidentKilobytes: Int
}

/// One run of a program through the `usage` launcher.
struct LaunchedRun {
  /// CLOCK_MONOTONIC, ns, just before the launcher was spawned, and after it was reaped.
  let spawnedAt: Int64
  let exitedAt: Int64
  let status: Int32
  let usage: SenderUsage
  /// What the program wrote on standard error (the launcher's own line left out).
  let errors: [String]

  var seconds: Double { Double(exitedAt - spawnedAt) / 1_000_000_000 }
}

/// Runs `command` through `launcher` (built from C/usage.c): standard input from `input` (or
/// /dev/null), standard output to /dev/null, standard error to `report`. Nil when the
/// launcher reported nothing.
func launch(
  _ command: [String], through launcher: String, input: String? = nil,
  environment: [String: String] = ProcessInfo.processInfo.environment, report: String
) throws -> LaunchedRun? {
  let null = try FileDescriptor.open("/dev/null", .writeOnly)
  let reportFile = try FileDescriptor.open(report, [.writeOnly, .create, .truncate])
  var descriptors = SpawnDescriptors()
  // Kept open until the spawn (a descriptor closes when its owner ends).
  let source = try FileDescriptor.open(input ?? "/dev/null", .readOnly)
  descriptors.give(source, as: 0)
  descriptors.give(null, as: 1)
  descriptors.give(reportFile, as: 2)
  let spawnedAt = monotonicNanoseconds()
  let pid = try ChildProcess.spawn(
    launcher, arguments: [launcher] + command, environment: environment,
    descriptors: descriptors, defaultSignals: [])
  _ = try ChildProcess.waitForExit(pid)
  let exitedAt = monotonicNanoseconds()
  // The launcher's last line: "usage: STATUS USER_US SYSTEM_US PEAK_KB".
  let lines = ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "")
    .split(separator: "\n").map(String.init)
  let fields = (lines.last { $0.hasPrefix("usage: ") } ?? "").split(separator: " ").dropFirst()
    .compactMap { Int($0) }
  guard fields.count == 4 else { return nil }
  return LaunchedRun(
    spawnedAt: spawnedAt, exitedAt: exitedAt, status: Int32(fields[0]),
    usage: SenderUsage(
      userTime: .microseconds(fields[1]), systemTime: .microseconds(fields[2]),
      peakResidentKilobytes: fields[3]),
    errors: lines.filter { !$0.hasPrefix("usage: ") })
}
