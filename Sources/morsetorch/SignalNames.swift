import Glibc

/// "SIGTERM" for 15, and so on.
func signalName(_ signal: Int32) -> String {
  switch signal {
  case SIGINT: "SIGINT"
  case SIGTERM: "SIGTERM"
  case SIGHUP: "SIGHUP"
  default: "signal \(signal)"
  }
}
