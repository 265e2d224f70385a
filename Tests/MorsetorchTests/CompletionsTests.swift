import Foundation
import Testing

@testable import morsetorch

@Suite("Completions")
struct CompletionsTests {
  private static let shells = ["bash", "zsh", "fish"]

  private static func shellPath(_ name: String) -> String? {
    ["/bin/", "/usr/bin/"].map { $0 + name }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  @Test(arguments: shells)
  func everyCommandAndOptionIsInTheScript(shell: String) throws {
    let script = try #require(Completions.script(for: shell))
    for command in CommandTable.commands {
      #expect(script.contains(command.name), "\(shell): \(command.name)")
      for option in command.options {
        let long = shell == "fish" ? "-l \(option.name)" : "--\(option.name)"
        #expect(script.contains(long), "\(shell) \(command.name): \(long)")
      }
    }
  }

  @Test func anotherShellIsAUsageError() throws {
    let outcome = try MorsetorchProcess.run(
      ["help", "--completions", "tcsh"], ledsDirectory: "/nonexistent")
    #expect(outcome.exitStatus == 64)
    #expect(outcome.standardError.contains("bash, zsh or fish"))
  }

  @Test(arguments: shells)
  func theScriptParses(shell: String) throws {
    guard let path = Self.shellPath(shell) else { return }  // that shell is not installed here
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "morsetorch-completion-\(UUID().uuidString).\(shell)")
    try #require(Completions.script(for: shell)).write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["-n", file.path]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 0, "\(shell) -n: \(message)")
  }

  @Test func bashCompletesCommandsOptionsAndLEDValues() throws {
    guard let bash = Self.shellPath("bash") else { return }
    let script = try #require(Completions.script(for: "bash"))
    // The completion function run as bash runs it, with COMP_WORDS set by hand.
    func complete(_ words: [String]) throws -> [String] {
      let quoted = words.map { "'\($0)'" }.joined(separator: " ")
      let program =
        script + "\nCOMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _morsetorch; "
        + #"printf '%s\n' "${COMPREPLY[@]}""#
      let process = Process()
      process.executableURL = URL(fileURLWithPath: bash)
      process.arguments = ["-c", program]
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      process.waitUntilExit()
      return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .split(separator: "\n").map(String.init)
    }
    #expect(try complete(["morsetorch", "se"]) == ["send"])
    #expect(try complete(["morsetorch", "send", "--wp"]) == ["--wpm"])
    #expect(try complete(["morsetorch", "send", "--bias", "pull-"]) == ["pull-up", "pull-down"])
    #expect(try complete(["morsetorch", "receive", "--a"]) == ["--active-low", "--alphabet"])
    #expect(try complete(["morsetorch", "help", "rec"]) == ["receive"])
    #expect(try complete(["morsetorch", "send", "--wpm", ""]) == [])
  }
}
