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
/// would have said.
public enum DetachedSend {
  /// The environment variable that tells the copy which descriptor to report readiness on.
  public static let readyVariable = "MORSETORCH_READY_FD"
  private static let readyDescriptor: Int32 = 3

  /// How the background copy started.
  public enum Outcome: Sendable, Hashable {
    /// It holds the LED and is sending (process `pid`).
    case sending(pid: Int32, output: String, errors: String)
    /// It ended before that, with this status.
    case ended(status: Int32, output: String, errors: String)
  }

  /// Starts the copy with `arguments` (without the program name) and waits until it sends or
  /// ends.
  public static func start(arguments: [String], environment: [String: String]) throws -> Outcome {
    guard let executable = Syscalls.executablePath() else {
      throw DetachError.noExecutable
    }
    do throws(Errno) {
      let output = try Syscalls.makePipe()
      let errors = try Syscalls.makePipe()
      let ready = try Syscalls.makePipe()
      var childEnvironment = environment
      childEnvironment[readyVariable] = String(readyDescriptor)
      let pid = try Syscalls.spawn(
        executable, arguments: [executable] + arguments, environment: childEnvironment,
        descriptors: [(output.write, 1), (errors.write, 2), (ready.write, readyDescriptor)])
      for end in [output.write, errors.write, ready.write] { try? Syscalls.close(end) }
      defer { for end in [output.read, errors.read, ready.read] { try? Syscalls.close(end) } }
      var byte = [UInt8](repeating: 0, count: 1)
      let isReady =
        (try? byte.withUnsafeMutableBytes { buffer in
          Result { () throws(Errno) in try Syscalls.read(ready.read, into: buffer) }
        }.get()) == 1
      // Ready: the copy has put /dev/null on its streams, so these reads end at once.
      let said = (
        String(decoding: (try? Syscalls.readAll(output.read)) ?? [], as: UTF8.self),
        String(decoding: (try? Syscalls.readAll(errors.read)) ?? [], as: UTF8.self)
      )
      if isReady { return .sending(pid: pid, output: said.0, errors: said.1) }
      return .ended(status: Syscalls.waitForExit(pid), output: said.0, errors: said.1)
    } catch {
      throw DetachError.cannotStart(error)
    }
  }

  /// In the copy: the descriptor to report readiness on, if this process is one. Also leaves
  /// the terminal's session, so closing the terminal does not hang it up.
  public static func adoptIfDetached(environment: [String: String]) -> Int32? {
    guard let text = environment[readyVariable], let descriptor = Int32(text), descriptor >= 3
    else { return nil }
    Syscalls.startSession()
    // Whatever else the parent's parent left open (a pipe a caller waits on to close, say)
    // must not be held for the whole transmission.
    Syscalls.closeInheritedDescriptors(keeping: descriptor)
    return descriptor
  }

  /// In the copy, once the LED is claimed: tells the parent, and leaves the standard streams
  /// (the parent stops reading them now).
  public static func reportReady(on descriptor: Int32) {
    Syscalls.silence([1, 2])
    _ = [UInt8(ascii: "R")].withUnsafeBytes { try? Syscalls.write(descriptor, $0) }
    try? Syscalls.close(descriptor)
  }
}

/// The background copy could not be started.
public enum DetachError: Error, Hashable, CustomStringConvertible {
  /// The path of this executable could not be found (/proc not mounted?).
  case noExecutable
  /// `posix_spawn` or a pipe failed.
  case cannotStart(Errno)

  /// What failed.
  public var description: String {
    switch self {
    case .noExecutable:
      return "cannot --detach: the path of this program is unknown (is /proc mounted?)"
    case .cannotStart(let errno):
      return "cannot --detach: starting the background copy failed: \(errno)"
    }
  }
}
