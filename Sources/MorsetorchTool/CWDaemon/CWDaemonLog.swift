import LinuxSystem

/// What the daemon says as it goes, by `-y`: on standard error in the foreground, in the
/// system log once detached (`Console` sends it there).
struct CWDaemonLog: Sendable {
  let verbosity: CWDaemonPlan.Verbosity

  func error(_ line: String) {
    if verbosity >= .errors { Console.error("error: " + line) }
  }

  func warning(_ line: String) {
    if verbosity >= .warnings { Console.error("warning: " + line) }
  }

  func info(_ line: String) {
    if verbosity >= .info { Console.note(line) }
  }
}
