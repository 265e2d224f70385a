import Foundation

/// A real terminal for a test: a detached tmux session on a server of its own, running one
/// command in a pane of a given size; killed with its server when the value goes.
final class TerminalSession {
  /// Whether tmux is here (CI installs it).
  static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

  private let name = "morsetorch-\(UUID().uuidString.prefix(8))"
  private let capture = NSTemporaryDirectory() + "morsetorch-screen-\(UUID().uuidString)"

  /// Starts `command` (a shell command line) in a pane `columns` by `rows`.
  init(_ command: String, columns: Int, rows: Int) {
    run(["new-session", "-d", "-s", name, "-x", String(columns), "-y", String(rows), command])
  }

  deinit {
    run(["kill-server"])
    try? FileManager.default.removeItem(atPath: capture)
  }

  /// Types `keys` (tmux's key names: `Tab`, `Enter`), or `text` literally with `literal`.
  func send(_ keys: String, literal: Bool = false) {
    run(["send-keys", "-t", name] + (literal ? ["-l"] : []) + [keys])
  }

  /// What the pane shows, with its colours as escape sequences when `withEscapes`.
  func screen(withEscapes: Bool = false) -> String {
    run(["capture-pane", "-p", "-t", name] + (withEscapes ? ["-e"] : []), output: capture)
    return (try? String(contentsOfFile: capture, encoding: .utf8)) ?? ""
  }

  /// Through system(3), which waits for the tmux client alone (Foundation's Process waited
  /// on past the client's end: the server it starts lives on).
  private func run(_ arguments: [String], output: String = "/dev/null") {
    let quoted = arguments.map { "'" + $0.replacing("'", with: "'\\''") + "'" }
    _ = system(
      "/usr/bin/tmux -L \(name) \(quoted.joined(separator: " ")) </dev/null >\(output) 2>&1")
  }
}
