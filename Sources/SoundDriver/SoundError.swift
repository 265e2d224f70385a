import LinuxSystem

/// Why the sound could not be played.
public enum SoundError: Error, Hashable, CustomStringConvertible {
  /// No player program was found on the path.
  case noPlayer(program: String)
  /// The player could not be started.
  case cannotStart(program: String, errno: Errno)
  /// The player ended before it played (`status`), having said `said` (its last line).
  case playerRefused(device: String, status: Int32, said: String)
  /// The player took no sound within the time allowed.
  case playerSilent(device: String)
  /// The player ended while playing (the device went away).
  case playerEnded(device: String, status: Int32?, said: String)

  /// What the player said, in the kind of failure it tells of.
  public enum Refusal: Sendable {
    /// No such device, or none at all.
    case noDevice
    /// Another program holds the device.
    case busy
    /// The device may not be opened by this user.
    case denied
    /// Something else.
    case other
  }

  /// What a refusal's words say: the error strings of ALSA's `snd_strerror` that `aplay`
  /// prints after "audio open error:".
  public var refusal: Refusal {
    guard case .playerRefused(_, _, let said) = self else { return .other }
    if said.contains("No such file or directory") || said.contains("No such device")
      || said.contains("Unknown PCM") || said.contains("cannot find card")
    {
      return .noDevice
    }
    if said.contains("Device or resource busy") { return .busy }
    if said.contains("Permission denied") || said.contains("Operation not permitted") {
      return .denied
    }
    return .other
  }

  public var description: String {
    switch self {
    case .noPlayer(let program):
      return "--sound plays through \(program), which is not on the path: install alsa-utils "
        + "(apt install alsa-utils)."
    case .cannotStart(let program, let errno):
      return "Cannot start \(program): \(errno)."
    case .playerRefused(let device, let status, let said):
      let heard = said.isEmpty ? "exit status \(status)" : said
      let advice: String
      switch refusal {
      case .noDevice:
        advice =
          " There is no such sound device here: `aplay -L` lists them (a machine with no "
          + "sound card has none)."
      case .busy:
        advice =
          " Another program holds it: end it, or play through \"default\", which a "
          + "desktop's sound server mixes."
      case .denied:
        advice =
          " Members of group audio may use the sound devices: sudo usermod -aG audio "
          + "\"$USER\", then log in again."
      case .other:
        advice = ""
      }
      return "Cannot play on sound device \(shown: device): \(heard).\(advice)"
    case .playerSilent(let device):
      return "The player took no sound for sound device \(shown: device) within 5 s: the "
        + "device or its sound server is stuck."
    case .playerEnded(let device, let status, let said):
      let how = status.map { "exit status \($0)" } ?? "it stopped reading"
      return "The player of sound device \(shown: device) ended while playing (\(how)"
        + (said.isEmpty ? "" : ": \(said)") + "): the device went away?"
    }
  }
}
