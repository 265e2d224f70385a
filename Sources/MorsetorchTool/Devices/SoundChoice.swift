import DeviceContract
import MorseCore
import MorsePlayer
import MorseSound
import SoundDriver

/// `--sound [DEVICE]` with `--tone`: the Morse as a tone on a sound device, the system's own
/// (`default`) unless named.
struct SoundChoice: SendChoice {
  /// The device as the player names it.
  let name: String
  /// The tone's pitch.
  let tone: Int

  var words: [String] { [name] }

  /// The device `--sound` names (`default` without a value), and the tone.
  init(_ arguments: ParsedArguments<SendOption>) throws {
    name = try Self.name(arguments.value(.sound) ?? "")
    tone = try SendPlan.tone(arguments)
  }

  /// `DEVICE`, checked; `default` for none.
  static func name(_ text: String) throws(UsageError) -> String {
    guard !text.isEmpty else { return "default" }
    guard DeviceID.isSoundDeviceName(Substring(text)) else {
      throw .invalidValue(
        option: SendOption.sound.flag, value: text,
        expected: "a sound device as `aplay -L` names it (default, hw:1, plughw:CARD=NAME)")
    }
    return text
  }

  /// With other devices: how much later the tone is heard than it is made, which they are
  /// held back by.
  func claimWarnings(_ torch: any Torch) -> [String] {
    guard let group = torch as? TorchGroup, group.members.count > 1 else { return [] }
    return group.members.compactMap { $0 as? SoundTorch }.map { sound in
      "note: the tone on \(sound.player.device) is heard about "
        + "\(sound.latency.millisecondsText) ms after it is made (what aplay and the pipe to it "
        + "hold): the other devices are held back by as much"
    }
  }

  /// The device, with the player found on the path.
  func devices(environment: ProcessEnvironment) throws -> [any TorchDevice]? {
    guard let player = SoundPlayer.find(onPath: environment["PATH"] ?? "/usr/bin:/bin") else {
      throw SoundError.noPlayer(program: SoundPlayer.program)
    }
    var settings = ToneSynthesizer.Settings()
    settings.frequency = tone
    return [
      SoundDevice(
        name: name, settings: settings, player: player, environment: environment.variables)
    ]
  }
}
