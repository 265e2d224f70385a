import Foundation

/// What a program other than morsetorch printed (standard output and error together) and
/// its exit status, run to its end.
struct ProgramRun {
  let output: String
  let status: Int32

  /// Runs `path` with `arguments` (and `environment`, when given, as its whole environment).
  init(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    status = process.terminationStatus
  }
}
