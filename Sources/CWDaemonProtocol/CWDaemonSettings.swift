/// What cwdaemon's requests and options set: the command line's values are the ones ESC 0
/// goes back to.
public struct CWDaemonSettings: Sendable, Equatable {
  /// Words per minute (`-s`, ESC 2; `+`/`-` in text).
  public var speed = 24
  /// The sidetone in Hz (`-T`, ESC 3); 0: none.
  public var tone = 800
  /// The sidetone's volume in % (`-v`, ESC g).
  public var volume = 70
  /// −50 to 50 (`-w`, ESC 7): how much longer than standard a mark is, and its gap shorter.
  public var weighting = 0
  /// The PTT lead time in ms (`-t`, ESC d); 0: PTT is never keyed.
  public var pttDelay = 0
  /// The sound system's letter (`-x`, ESC f).
  public var soundSystem: Character = "n"

  /// Settings with cwdaemon's defaults.
  public init() {}

  /// The speeds cwdaemon accepts (libcw's).
  public static let speedRange = 4...60
  /// The sidetone pitches cwdaemon accepts, 0 for none.
  public static let toneRange = 0...4_000
  /// The volumes.
  public static let volumeRange = 0...100
  /// The weightings.
  public static let weightingRange = -50...50
  /// The PTT lead times, in ms.
  public static let pttDelayRange = 0...50
  /// The longest tune, in seconds.
  public static let longestTune = 10
  /// The sound systems, by first letter: null, console, soundcard, ALSA, PulseAudio, OSS.
  public static let soundSystems: [Character] = ["n", "c", "s", "a", "p", "o"]
}
