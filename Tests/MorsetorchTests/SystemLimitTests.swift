import Foundation
import MorseTestSupport
import Testing

/// A static build of the tool to run as well (`MORSETORCH_STATIC_EXECUTABLE`, as .ci/run
/// builds it): its Swift runtime reads the arguments in a way the tests' build does not.
private let staticExecutable = ProcessInfo.processInfo.environment["MORSETORCH_STATIC_EXECUTABLE"]

/// Runs `morsetorch ARGUMENTS…` at `path` through bash after `prefix`; its status and output.
private func runThroughBash(_ path: String, prefix: String, _ arguments: [String]) throws -> (
  status: Int32, output: String, errors: String
) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/bash")
  process.arguments = ["-c", prefix + "; exec \"$0\" \"$@\"", path] + arguments
  process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
  let (output, errors) = (Pipe(), Pipe())
  process.standardInput = FileHandle.nullDevice
  process.standardOutput = output
  process.standardError = errors
  try process.run()
  let printed = output.fileHandleForReading.readDataToEndOfFile()
  let complained = errors.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (
    process.terminationStatus, String(decoding: printed, as: UTF8.self),
    String(decoding: complained, as: UTF8.self)
  )
}

@Suite("System limits")
struct SystemLimitTests {
  // ulimit -n 4: one descriptor beside the standard streams, which the tests' build (linked
  // dynamically) needs to load its libraries; the static build's test below leaves none.
  @Test func theArgumentsAreReadWithNoDescriptorFree() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      ["encode", "SOS"], ledsDirectory: fixture.ledsPath, launch: .shell("ulimit -n 4"))
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == "... --- ...\n", "\(outcome)")
  }

  @Test(.enabled(if: staticExecutable != nil, "set MORSETORCH_STATIC_EXECUTABLE"))
  func theStaticBuildReadsTheArgumentsWithNoDescriptorFree() throws {
    let run = try runThroughBash(
      try #require(staticExecutable), prefix: "ulimit -n 3", ["encode", "SOS"])
    #expect(run.status == 0, "\(run)")
    #expect(run.output == "... --- ...\n", "\(run)")
  }

  // RLIMIT_NPROC binds a user, never root: as root the child runs as nobody.
  @Test(
    .enabled(if: MorsetorchProcess.canRunUnprivileged, "needs setpriv(1) when run as root"),
    arguments: [["encode"], ["decode"], ["send", "--dry-run", "--unit", "1"]])
  func aThreadRefusedByTheProcessLimitNamesTheLimit(arguments: [String]) throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      arguments, ledsDirectory: fixture.ledsPath, input: "SOS\n",
      launch: .shell("ulimit -u 1", asNobody: true))
    // Under qemu-user (the arm64 test run) every thread of the child is one of the emulator's,
    // which fails before morsetorch runs: nothing of morsetorch's to check there.
    if outcome.standardError.hasPrefix("qemu: ") { return }
    #expect(outcome.exitStatus == 71, "\(outcome)")
    #expect(
      outcome.standardError.hasSuffix(
        "morsetorch: cannot start a thread: Resource temporarily unavailable (EAGAIN); the "
          + "limit on processes (ulimit -u) or memory (ulimit -v) may be too low\n"),
      "\(outcome)")
  }
}
