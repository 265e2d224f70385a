import Foundation
import Glibc
import MorseTestSupport
import Synchronization
import Testing

/// The built `morsetorch` executable, run as a child process with pipes on standard input,
/// output and error, and a hard limit on every wait.
///
/// The child's environment is built from scratch: `PATH`, `MORSETORCH_LEDS_DIR` (always set, so
/// a test can never reach /sys/class/leds), `MORSETORCH_RUNTIME_DIR` (always set, so a test
/// never touches /run/morsetorch) and whatever the test adds. A child still running when its
/// value goes away is killed.
final class MorsetorchProcess: @unchecked Sendable {
  /// How long any wait lasts before the child is killed and the test fails.
  static let defaultTimeout: Duration = .seconds(20)

  /// The path of the built executable: next to the test bundle, in the build directory.
  static func executablePath(_ tool: Tool = .shipped) throws -> String {
    var directories: [URL] = []
    if let testBinary = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    {
      directories.append(URL(fileURLWithPath: testBinary).deletingLastPathComponent())
    }
    directories.append(Bundle.main.bundleURL.deletingLastPathComponent())
    directories.append(Bundle.main.bundleURL)
    let candidates = directories.map { $0.appendingPathComponent(tool.rawValue).path }
    guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:))
    else { throw Failure.executableMissing(searched: candidates) }
    return try reachableByEveryone(found)
  }

  /// `path`, or a copy of it in a directory of its own under `/tmp` where some directory on
  /// the way to it is closed to other users (a checkout in a home directory of mode 0700):
  /// the tests run it as `nobody` too. One copy per executable for the whole test run,
  /// removed at exit.
  private static func reachableByEveryone(_ path: String) throws -> String {
    var directory = URL(fileURLWithPath: path).deletingLastPathComponent()
    var isReachable = true
    while directory.path != "/" {
      var status = stat()
      if stat(directory.path, &status) != 0 || status.st_mode & S_IXOTH == 0 {
        isReachable = false
        break
      }
      directory.deleteLastPathComponent()
    }
    if isReachable { return path }
    return try copies.withLock { copies in
      if let copy = copies[path] { return copy }
      let directory = "/tmp/morsetorch-tests-\(getpid())-\(copies.count)"
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o755])
      let copy = directory + "/" + URL(fileURLWithPath: path).lastPathComponent
      try writeExecutable(Array(try Data(contentsOf: URL(fileURLWithPath: path))), to: copy)
      if copies.isEmpty { atexit { MorsetorchProcess.removeCopies() } }
      copies[path] = copy
      return copy
    }
  }

  /// The copies `reachableByEveryone` made, by the path they copy.
  private static let copies = Mutex<[String: String]>([:])

  private static func removeCopies() {
    for copy in copies.withLock({ Array($0.values) }) {
      try? FileManager.default.removeItem(
        atPath: URL(fileURLWithPath: copy).deletingLastPathComponent().path)
    }
  }

  /// Whether this machine's `/etc/group` has `leds` (the package makes it), which the advice
  /// for a user who may not write an LED depends on.
  static let machineHasLEDGroup: Bool = {
    let groups = (try? String(contentsOfFile: "/etc/group", encoding: .utf8)) ?? ""
    return groups.split(separator: "\n").contains { $0.hasPrefix("leds:") }
  }()

  /// Whether `Launch.unprivileged` can drop to another user here (or need not).
  static var canRunUnprivileged: Bool {
    getuid() != 0 || FileManager.default.isExecutableFile(atPath: setprivPath)
  }

  private static let setprivPath = "/usr/bin/setpriv"
  /// What runs a command as user and group nobody (65534), without root's other groups.
  private static let asNobody = [setprivPath, "--reuid=65534", "--regid=65534", "--clear-groups"]
  private static let envPath = "/usr/bin/env"

  /// Whether env(1) can set signal dispositions for the child (GNU coreutils 8.31 and later).
  static let canSetSignalDispositions: Bool = {
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: envPath)
    probe.arguments = ["--default-signal=INT", "--ignore-signal=HUP", "/bin/true"]
    probe.standardOutput = FileHandle.nullDevice
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return false }
    probe.waitUntilExit()
    return probe.terminationReason == .exit && probe.terminationStatus == 0
  }()

  /// "HUP" for SIGHUP, as env(1) spells signals.
  private static func envSignalName(_ signal: Int32) -> String {
    switch signal {
    case SIGHUP: "HUP"
    case SIGINT: "INT"
    case SIGTERM: "TERM"
    case SIGPIPE: "PIPE"
    default: "\(signal)"
    }
  }

  /// Writing to the standard input of a child that has already exited must be an error
  /// (`EPIPE`) for that test, not a `SIGPIPE` that ends the whole test process.
  private static let brokenPipesIgnored: Bool = {
    signal(SIGPIPE, SIG_IGN)
    return true
  }()

  /// The arguments the child was started with, for messages.
  let arguments: [String]
  private let process = Process()
  private let input = Pipe()
  private let started = ContinuousClock.now
  private let finished = DispatchGroup()
  private let captured = CapturedOutput()
  private let lock = NSLock()
  private var isInputClosed = false

  /// Starts `morsetorch ARGUMENTS…` with the LED class directory `ledsDirectory`; standard
  /// input stays open until `closeInput()`.
  ///
  /// The child starts as from an interactive shell: no signal blocked, and SIGHUP, SIGINT and
  /// SIGTERM at their default action — unless `blockedSignals` or `ignoredSignals` say
  /// otherwise. (A test runs on a Swift concurrency or Dispatch thread, which blocks signals,
  /// and `Foundation.Process` spawns with the calling thread's mask; a test runner started in
  /// the background by a script ignores SIGINT, and ignored signals survive `exec`.)
  init(
    _ arguments: [String], ledsDirectory: String, environment: [String: String] = [:],
    runtimeDirectory: String? = nil, launch: Launch = .direct, tool: Tool = .shipped,
    blockedSignals: [Int32] = [], ignoredSignals: [Int32] = []
  ) throws {
    self.arguments = arguments
    var isUnprivilegedAsRoot = false
    if case .unprivileged = launch, getuid() == 0 { isUnprivilegedAsRoot = true }
    if case .shell(_, true) = launch, getuid() == 0 { isUnprivilegedAsRoot = true }
    _ = Self.brokenPipesIgnored
    var command = try Self.command(
      arguments, executable: try Self.executablePath(tool), launch: launch,
      asNobody: isUnprivilegedAsRoot)
    if Self.canSetSignalDispositions {
      var prefix = [Self.envPath, "--default-signal=HUP,INT,TERM"]
      if !ignoredSignals.isEmpty {
        prefix.append(
          "--ignore-signal=" + ignoredSignals.map(Self.envSignalName).joined(separator: ","))
      }
      command = prefix + command
    } else if !ignoredSignals.isEmpty {
      throw Failure.cannotIgnoreSignals
    }
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    // The locks of one test's runs live next to its LED class directory, never in the real
    // /run/morsetorch (where tests running in parallel would cancel each other's sends).
    let runtimeDirectory =
      runtimeDirectory
      ?? URL(fileURLWithPath: ledsDirectory).deletingLastPathComponent().appendingPathComponent(
        "run"
      ).path
    try Self.prepareRuntimeDirectory(runtimeDirectory, forNobody: isUnprivilegedAsRoot)
    var childEnvironment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
    childEnvironment.merge(environment) { _, new in new }
    childEnvironment["MORSETORCH_LEDS_DIR"] = ledsDirectory
    childEnvironment["MORSETORCH_RUNTIME_DIR"] = runtimeDirectory
    process.environment = childEnvironment

    let standardOutput = Pipe()
    let standardError = Pipe()
    process.standardInput = input
    process.standardOutput = standardOutput
    process.standardError = standardError
    finished.enter()
    process.terminationHandler = { [finished] _ in finished.leave() }
    try Self.spawn(process, blockedSignals: blockedSignals)
    drain(standardOutput.fileHandleForReading, into: .standardOutput)
    drain(standardError.fileHandleForReading, into: .standardError)
  }

  /// The command line that starts morsetorch with `arguments` the way `launch` says.
  private static func command(
    _ arguments: [String], executable: String, launch: Launch, asNobody isNobody: Bool
  ) -> [String] {
    switch launch {
    case .direct:
      return [executable] + arguments
    case .rawLastArgument(let bytes):
      let octal = bytes.map { "\\" + String($0, radix: 8) }.joined()
      return
        ["/bin/sh", "-c", "exec \"$0\" \"$@\" \"$(printf '\(octal)')\"", executable] + arguments
    case .unprivileged where isNobody:
      return asNobody + [executable] + arguments
    case .unprivileged:
      return [executable] + arguments
    case .groupMember:
      return asNobody + [executable] + arguments
    case .outputClosed:
      return ["/bin/sh", "-c", "exec \"$0\" \"$@\" >&-", executable] + arguments
    case .shell(let prefix, _):
      let user = isNobody ? asNobody : []
      return user + ["/bin/bash", "-c", prefix + "; exec \"$0\" \"$@\"", executable] + arguments
    case .underTerminal:
      let quoted = ([executable] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
      return ["/usr/bin/script", "-qec", quoted, "/dev/null"]
    }
  }

  /// Makes `path` a runtime directory shared by root and group 65534 the way the README's
  /// tmpfiles.d line does (owner root, that group, mode 3770).
  static func shareRuntimeDirectory(_ path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    chown(path, 0, 65_534)
    chmod(path, 0o3770)
  }

  /// Makes the runtime directory (mode 0700) if it is missing; for a run as `nobody`, hands it
  /// to that user, since morsetorch refuses one that belongs to someone else.
  private static func prepareRuntimeDirectory(_ path: String, forNobody: Bool) throws {
    if !FileManager.default.fileExists(atPath: path) {
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }
    if forNobody { chown(path, 65_534, 65_534) }
  }

  /// Starts `process` from a thread of its own whose signal mask is exactly `blockedSignals`,
  /// which the child inherits.
  private static func spawn(_ process: Process, blockedSignals: [Int32]) throws {
    let launch = Launcher(process)
    let thread = Thread { [launch] in
      var mask = sigset_t()
      sigemptyset(&mask)
      for signal in blockedSignals { sigaddset(&mask, signal) }
      pthread_sigmask(SIG_SETMASK, &mask, nil)
      launch.run()
    }
    thread.start()
    try launch.result()
  }

  /// A process started on another thread, and how that went.
  private final class Launcher: @unchecked Sendable {
    private let process: Process
    private let done = DispatchSemaphore(value: 0)
    private var error: (any Error)?

    init(_ process: Process) { self.process = process }

    /// Starts the process; on the launching thread.
    func run() {
      do { try process.run() } catch { self.error = error }
      done.signal()
    }

    /// Waits for `run` and rethrows its error.
    func result() throws {
      done.wait()
      if let error { throw error }
    }
  }

  /// Runs `morsetorch ARGUMENTS…` to its end with `input` on standard input.
  static func run(
    _ arguments: [String], ledsDirectory: String, input: String = "",
    environment: [String: String] = [:], runtimeDirectory: String? = nil,
    launch: Launch = .direct, tool: Tool = .shipped, timeout: Duration = defaultTimeout
  ) throws -> Outcome {
    let child = try MorsetorchProcess(
      arguments, ledsDirectory: ledsDirectory, environment: environment,
      runtimeDirectory: runtimeDirectory, launch: launch, tool: tool)
    // A child that ends before reading (a usage error) closes the pipe: EPIPE is no failure.
    try? child.write(input)
    child.closeInput()
    return try child.wait(timeout: timeout)
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    closeInput()
  }

  /// The child's process id.
  var processIdentifier: Int32 { process.processIdentifier }

  /// Whether the child is still running.
  var isRunning: Bool { process.isRunning }

  /// Whether the child has `path` open (a link in /proc/PID/fd names it): it shows the child
  /// runs far enough to wait there, its signal handlers installed before. (Not its `SigCgt`
  /// mask: under qemu-user that is qemu's, which catches every signal from the start.)
  func hasOpen(_ path: String) -> Bool {
    let directory = "/proc/\(process.processIdentifier)/fd"
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return entries.contains { entry in
      (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + entry))
        == path
    }
  }

  /// Writes `text` to the child's standard input.
  func write(_ text: String) throws {
    guard !text.isEmpty else { return }
    try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
  }

  /// Writes raw `bytes` (not necessarily UTF-8) to the child's standard input.
  func write(bytes: [UInt8]) throws {
    try input.fileHandleForWriting.write(contentsOf: Data(bytes))
  }

  /// Closes the child's standard input: it reads end of file.
  func closeInput() {
    lock.withLock {
      guard !isInputClosed else { return }
      isInputClosed = true
      try? input.fileHandleForWriting.close()
    }
  }

  /// Sends `signal` to the child.
  func send(signal: Int32) {
    kill(process.processIdentifier, signal)
  }

  /// Waits for the child to end and its output to be read; kills it and throws after `timeout`.
  func wait(timeout: Duration = defaultTimeout) throws -> Outcome {
    if finished.wait(timeout: .now() + timeout.timeInterval) == .timedOut {
      kill(process.processIdentifier, SIGKILL)
      _ = finished.wait(timeout: .now() + 5)
      let standardError = captured.text(.standardError)
      throw Failure.timedOut(arguments: arguments, after: timeout, standardError: standardError)
    }
    let elapsed = ContinuousClock.now - started
    closeInput()
    return Outcome(
      status: process.terminationStatus, reason: process.terminationReason,
      standardOutput: captured.text(.standardOutput), standardError: captured.text(.standardError),
      elapsed: elapsed)
  }

  /// What the child wrote to standard output so far.
  var standardOutputSoFar: String { captured.text(.standardOutput) }

  /// What the child wrote to standard error so far.
  var standardErrorSoFar: String { captured.text(.standardError) }

  /// Reads `handle` to its end on a thread of its own; `wait` waits for it too.
  ///
  /// The thread holds only the buffer, not `self`, so a test that gives up early still drops
  /// its value, which kills the child.
  private func drain(
    _ handle: FileHandle, into stream: CapturedOutput.Stream
  ) {
    finished.enter()
    Thread.detachNewThread { [captured, finished] in
      // What is there as soon as it is there (`read(upToCount:)` would wait for a full count).
      while case let chunk = handle.availableData, !chunk.isEmpty {
        captured.append(chunk, to: stream)
      }
      try? handle.close()
      finished.leave()
    }
  }
}

/// The child's standard output and error as read so far.
private final class CapturedOutput: @unchecked Sendable {
  /// Which of the two.
  enum Stream: Sendable { case standardOutput, standardError }

  private let lock = NSLock()
  private var data: [Stream: Data] = [:]

  /// Adds what was just read from `stream`.
  func append(_ chunk: Data, to stream: Stream) {
    lock.withLock { data[stream, default: Data()].append(chunk) }
  }

  /// What `stream` held so far, as UTF-8 (invalid bytes repaired).
  func text(_ stream: Stream) -> String {
    lock.withLock { String(decoding: data[stream] ?? Data(), as: UTF8.self) }
  }
}

extension Duration {
  /// The duration in seconds, for Dispatch and Foundation.
  var timeInterval: TimeInterval {
    let (seconds, attoseconds) = components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }
}
