import Glibc
import LinuxSystem
import MorseCore

// Ignored so a closed pipe on standard output or error is an EPIPE error we can handle
// (with the LED restored) instead of a silent death with the LED left on.
signal(SIGPIPE, SIG_IGN)
// Before anything is opened: a closed standard stream must not lend its number to a file.
StandardStreams.occupyClosedDescriptors()

/// The command line as strict UTF-8: Swift's `CommandLine.arguments` would quietly repair
/// invalid bytes into U+FFFD, and they would be sent (or rejected) as something else.
private func strictArguments() throws -> [String] {
  try (1..<Int(CommandLine.argc)).map { index in
    let bytes =
      CommandLine.unsafeArgv[index].map { pointer in
        UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
      } ?? []
    do throws(MorseError) {
      return try UTF8Lines.decode(UTF8Lines.droppingByteOrderMark(bytes), line: 1)
    } catch {
      throw ArgumentEncodingError(position: index, error: error)
    }
  }
}

/// The environment, from `environ` (no Foundation needed).
private func processEnvironment() -> [String: String] {
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

let status: Int32
do {
  status = Morsetorch.run(try strictArguments(), environment: processEnvironment())
} catch {
  let report = failureReport(for: error)
  Console.error(report.message)
  status = report.status
}
Console.flushErrors()
exit(status)
