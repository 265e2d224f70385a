import DeviceContract
import LinuxSystem
import MorseSound

/// A sound device as a device of morsetorch: claimed by starting its player and taking the
/// tone to it; nothing of it outlives the transmission (a killed sender's player plays out
/// what its pipe holds, a few tens of milliseconds, and ends), so there is nothing to put back.
public struct SoundDevice: TorchDevice {
  /// The device as the player names it.
  public let name: String
  /// The tone.
  public let settings: ToneSynthesizer.Settings
  /// The player's path (`SoundPlayer.find`).
  public let player: String
  /// The environment the player runs in (a desktop's sound server is found through it).
  public let environment: [String: String]

  public init(
    name: String, settings: ToneSynthesizer.Settings, player: String,
    environment: [String: String]
  ) {
    self.name = name
    self.settings = settings
    self.player = player
    self.environment = environment
  }

  public var id: DeviceID { .sound(name) }

  /// The device's name: all a record of it holds.
  public func saveState() throws -> SavedFields { SavedFields([.init("device", name)]) }

  /// Starts the player and waits until it takes the tone.
  public func claim(saved: SavedFields) throws -> (torch: any Torch, saved: SavedFields) {
    let player = try SoundPlayer(path: player, device: name, environment: environment)
    return (try SoundTorch(player: player, settings: settings), saved)
  }

  /// Nothing to put back.
  public func restore(_ saved: SavedFields, writer: UserRights?) throws -> [SkippedSetting] { [] }

  public func isPlausible(_ saved: SavedFields) -> Bool {
    saved.fields.count == 1 && saved.value(of: "device") == name
  }
}
