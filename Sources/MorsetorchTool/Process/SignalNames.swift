import Glibc

/// The names of the signals morsetorch catches, by number.
private let signalNames: [Int32: String] = [
  SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGTERM: "SIGTERM",
  SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2", SIGALRM: "SIGALRM", SIGVTALRM: "SIGVTALRM",
  SIGPROF: "SIGPROF", SIGIO: "SIGIO", SIGPWR: "SIGPWR", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
  SIGSTKFLT: "SIGSTKFLT", SIGPIPE: "SIGPIPE", SIGKILL: "SIGKILL",
]

/// "SIGTERM" for 15, "SIGRTMIN+3" for the fourth real-time signal, and so on; "signal N" for
/// a number that names none of those.
func signalName(_ signal: Int32) -> String {
  if let name = signalNames[signal] { return name }
  let first = __libc_current_sigrtmin()
  let last = __libc_current_sigrtmax()
  if signal == first { return "SIGRTMIN" }
  if signal == last { return "SIGRTMAX" }
  if signal > first && signal < last { return "SIGRTMIN+\(signal - first)" }
  return "signal \(signal)"
}
