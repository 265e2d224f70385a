import LinuxSystem
import DeviceContract

/// An LED claimed as a torch at a brightness: the LED class's `TorchDevice`.
public struct LEDDevice: TorchDevice {
  /// The LED.
  public let led: LED
  /// How bright "on" is.
  public let brightness: BrightnessSetting

  /// The LED `led`, switched on at `brightness`.
  public init(led: LED, brightness: BrightnessSetting = .maximum) {
    self.led = led
    self.brightness = brightness
  }

  /// The LED, by name.
  public var id: DeviceID { .led(led.name) }

  /// Throws `permissionDenied` naming the first file `send` writes (those `list` shows as not
  /// WRITABLE) that this user may not write: checked for each LED of a set before any is
  /// reserved or claimed, so that a refused one leaves no LED switched and no record behind.
  public func checkWritable() throws(LEDError) {
    let trigger = (try? led.readAttribute(LED.triggerAttribute)).flatMap(LED.parseActiveTrigger)
    guard let attribute = led.unwritableAttributes(activeTrigger: trigger).first else { return }
    let path = led.attributePath(attribute)
    // Gone since it was listed (unplugged) is no permission to ask for; a read-only file
    // system (EROFS) is not the user's rights either.
    throw LEDError(FileSystem.writeRefusal(path) ?? .permissionDenied, operation: "write", path: path)
  }

  /// Reads the trigger, its settings and the brightness (`SavedLEDState.fields`).
  public func saveState() throws -> SavedFields {
    try SavedLEDState(of: led).fields
  }

  /// Takes the trigger away (`none`); the torch writes `brightness`. The state to restore
  /// keeps the trigger's own settings: the files that went with it.
  public func claim(saved: SavedFields) throws -> (torch: any Torch, saved: SavedFields) {
    let torch = try SysfsTorch(led: led, brightness: brightness, saved: try Self.state(saved))
    return (torch, torch.saved.fields)
  }

  /// Writes the saved trigger, its settings and brightness back, where `writer` may.
  public func restore(_ saved: SavedFields, writer: UserRights?) throws -> [SkippedSetting] {
    try Self.state(saved).restore(to: led, writer: writer)
  }

  /// Whether `saved` is an LED's state (`SavedLEDState.init?(fields:)`).
  public func isPlausible(_ saved: SavedFields) -> Bool {
    SavedLEDState(fields: saved) != nil
  }

  private static func state(_ saved: SavedFields) throws(LEDError) -> SavedLEDState {
    guard let state = SavedLEDState(fields: saved) else {
      throw .malformed(path: "the state record", content: "\(saved.fields.count) fields")
    }
    return state
  }
}
