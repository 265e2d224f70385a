import GPIODriver
import LinuxSystem
import MorseCore

/// The process around one run of the tool: what `main` does, given the kinds of GPIO chip it
/// may open (the kernel's only, in the shipped executable; a test build adds simulated ones).
public enum ToolProcess {
  /// Prepares the process, runs its command line and exits with the command's status.
  public static func main(gpioStandIn: (any GPIOChipStandIn)? = nil) -> Never {
    // Ignored so a closed pipe on standard output or error is an EPIPE error we can handle
    // (with the LED restored) instead of a silent death with the LED left on.
    Signals.ignoreBrokenPipes()
    // Before anything is opened: a closed standard stream must not lend its number to a file.
    StandardStreams.occupyClosedDescriptors()
    let status: Int32
    do {
      let environment = ProcessEnvironment(
        variables: CurrentProcess.environmentVariables(), gpioStandIn: gpioStandIn)
      if let problem = CurrentProcess.commandLineProblem() {
        throw SystemLimitError.commandLineUnreadable(problem)
      }
      status = Morsetorch.run(try strictArguments(), environment: environment)
    } catch {
      let report = failureReport(for: error)
      Console.error(report.message)
      status = report.status
    }
    Console.flushErrors()
    CurrentProcess.exit(status)
  }

  /// The command line as strict UTF-8: Swift's `CommandLine.arguments` would quietly repair
  /// invalid bytes into U+FFFD, and they would be sent (or rejected) as something else.
  private static func strictArguments() throws -> [String] {
    try CurrentProcess.withEachArgument { (position, bytes) throws(ArgumentEncodingError) in
      // Without a byte-order mark, compared byte by byte: the generic droppingByteOrderMark
      // touched more code before the first edge of every send (peak RSS; the benchmark's
      // `startup` measures it).
      let mark = UTF8Lines.byteOrderMark
      let hasMark = bytes.count >= mark.count && mark.indices.allSatisfy { bytes[$0] == mark[$0] }
      let text = UnsafeBufferPointer(rebasing: bytes[(hasMark ? mark.count : 0)...])
      if let valid = String(validating: text, as: UTF8.self) { return valid }
      do throws(MorseError) {
        return try UTF8Lines.decode(Array(text), line: 1)
      } catch {
        throw ArgumentEncodingError(position: position, error: error)
      }
    }
  }
}
