import LinuxSystem

/// `send --detach`: the transmission goes on in a copy of the tool in the background, and the
/// shell gets its prompt back as soon as that copy holds the LED.
///
/// The copy is the same executable with the same arguments (less `--detach`), started with
/// `MORSETORCH_READY_FD` naming a pipe. It does everything a `send` does — checks, rerun
/// toggle, reservation, claim — with its standard output and error on pipes to the parent.
/// Once it has claimed the LED it writes one byte on the ready pipe and puts /dev/null on its
/// standard streams; the parent passes on what it said and returns. If it ends before that
/// (an error, or a rerun that cancelled another transmission), the parent passes on what it
/// said and exits with its status. Either way the user sees exactly what a plain `send`
/// would have said. What the copy has to say after that goes to the system log.
enum DetachedSend {
  /// The environment variable that tells the copy which descriptor to report readiness on.
  static let readyVariable = "MORSETORCH_READY_FD"
  private static let readyDescriptor: Int32 = 3

  /// How the background copy started.
  enum Outcome: Sendable, Hashable {
    /// It holds the LED and is sending (process `pid`).
    case sending(pid: Int32, output: String, errors: String)
    /// It ended before that, with this status.
    case ended(status: Int32, output: String, errors: String)
  }

  /// Starts the copy with `arguments` (without the program name) and waits until it sends or
  /// ends.
  static func start(arguments: [String], environment: ProcessEnvironment) throws -> Outcome {
    guard let executable = CurrentProcess.executablePath() else {
      throw DetachError.noExecutable
    }
    do throws(Errno) {
      let output = try Pipe()
      let errors = try Pipe()
      let ready = try Pipe()
      var childEnvironment = environment.variables
      childEnvironment[readyVariable] = String(readyDescriptor)
      var descriptors = SpawnDescriptors()
      descriptors.give(output.writeEnd, as: 1)
      descriptors.give(errors.writeEnd, as: 2)
      descriptors.give(ready.writeEnd, as: readyDescriptor)
      let pid = try ChildProcess.spawn(
        executable, arguments: [executable] + arguments, environment: childEnvironment,
        descriptors: descriptors, defaultSignals: Signals.terminating + [Signals.brokenPipe])
      // Only the child's copies of the write ends may stay open, or the reads never end.
      // Read what the copy says as it says it: a copy that says more than a pipe holds before
      // it is ready must not wait for a reader that waits for it.
      let said = (
        try BackgroundReader(output.closingWriteEnd()),
        try BackgroundReader(errors.closingWriteEnd())
      )
      let readyRead = ready.closingWriteEnd()
      var byte: UInt8 = 0
      let isReady =
        (try? withUnsafeMutableBytes(of: &byte) { try readyRead.read(into: $0) }) == 1
      // Ready: the copy has put /dev/null on its streams, so these reads end at once.
      let printed = String(decoding: said.0.result(), as: UTF8.self)
      let complained = String(decoding: said.1.result(), as: UTF8.self)
      if isReady { return .sending(pid: pid, output: printed, errors: complained) }
      return .ended(
        status: try ChildProcess.waitForExit(pid), output: printed, errors: complained)
    } catch {
      throw DetachError.cannotStart(error)
    }
  }

  /// In the copy: the descriptor to report readiness on, if this process is one. Also leaves
  /// the terminal's session, so closing the terminal does not hang it up.
  static func adoptIfDetached(environment: ProcessEnvironment) -> FileDescriptor? {
    guard let text = environment[readyVariable], let number = Int32(text),
      let ready = CurrentProcess.adoptInheritedDescriptor(number)
    else { return nil }
    CurrentProcess.startSession()
    // Whatever else the parent's parent left open (a pipe a caller waits on to close, say)
    // must not be held for the whole transmission.
    CurrentProcess.closeInheritedDescriptors(keeping: ready)
    return ready
  }

  /// The environment variable naming the system log's socket instead of /dev/log (for tests).
  static let systemLogVariable = "MORSETORCH_SYSLOG_SOCKET"

  /// In the copy, once the LED is claimed: tells the parent, and leaves the standard streams
  /// (the parent stops reading them now). Later errors and notes (an LED that vanished at
  /// 3 a.m., what stopped the transmission) go to the system log.
  static func reportReady(on ready: consuming FileDescriptor, environment: ProcessEnvironment) {
    // What is still queued for standard error goes to the parent first, not to /dev/null.
    Console.flushErrors()
    let socket = environment[systemLogVariable].flatMap { $0.isEmpty ? nil : $0 }
    Console.useSystemLog(
      SystemLog(socketPath: socket ?? SystemLog.defaultSocket, identifier: "morsetorch"))
    StandardStreams.silence()
    try? ready.writeWhole([UInt8(ascii: "R")])
    try? ready.close()
  }
}
