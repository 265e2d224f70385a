import Instants
import LinuxSystem

/// What the progress line shows, as of the last step that began.
struct ProgressState: Sendable, Hashable {
  /// The character being sent (escaped for the terminal), and its code (`...`).
  var symbol = ""
  var code = ""
  /// Whether the light is on (a dot or a dash is being sent).
  var isOn = false
  /// How many characters have begun (in this round), and how many the message has (nil for
  /// standard input).
  var symbolsBegun = 0
  var totalSymbols: Int?
  /// When the first step began (seconds of the monotonic clock), and how long the whole
  /// transmission takes, rounds and pauses included (nil: standard input, or `--loop`).
  var origin: MonotonicInstant?
  var total: Duration?
  /// The round being sent, and how many there are (0: `--loop`; 1: sent once).
  var round = 1
  var rounds = 1
  /// Standard input: the line being sent, and whether the sender waits for the next one.
  var line: Int?
  var isWaitingForInput = false
}
