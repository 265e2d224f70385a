import GPIODriver
import Glibc
import LinuxSystem
import MorseCore

/// The process around one run of the tool: what `main` does, given the kinds of GPIO chip it
/// may open (the kernel's only, in the shipped executable; a test build adds simulated ones).
public enum ToolProcess {
  /// Prepares the process, runs its command line and exits with the command's status.
  public static func main(gpioStandIn: (any GPIOChipStandIn)? = nil) -> Never {
    // Ignored so a closed pipe on standard output or error is an EPIPE error we can handle
    // (with the LED restored) instead of a silent death with the LED left on.
    signal(SIGPIPE, SIG_IGN)
    // Before anything is opened: a closed standard stream must not lend its number to a file.
    StandardStreams.occupyClosedDescriptors()
    let status: Int32
    do {
      let environment = ProcessEnvironment(variables: processEnvironment(), gpioStandIn: gpioStandIn)
      status = Morsetorch.run(try strictArguments(), environment: environment)
    } catch {
      let report = failureReport(for: error)
      Console.error(report.message)
      status = report.status
    }
    Console.flushErrors()
    exit(status)
  }

  /// The command line as strict UTF-8: Swift's `CommandLine.arguments` would quietly repair
  /// invalid bytes into U+FFFD, and they would be sent (or rejected) as something else.
  private static func strictArguments() throws -> [String] {
    try (1..<Int(CommandLine.argc)).map { index in
      let bytes =
        CommandLine.unsafeArgv[index].map { pointer in
          UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map {
            UInt8(bitPattern: $0)
          }
        } ?? []
      do throws(MorseError) {
        return try UTF8Lines.decode(UTF8Lines.droppingByteOrderMark(bytes), line: 1)
      } catch {
        throw ArgumentEncodingError(position: index, error: error)
      }
    }
  }

  /// The environment, from `environ` (no Foundation needed).
  private static func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let text = String(cString: pointer)
      if let equals = text.firstIndex(of: "=") {
        result[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      entry += 1
    }
    return result
  }
}
