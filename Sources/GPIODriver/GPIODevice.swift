import LinuxSystem
import DeviceContract

/// A GPIO line claimed as a torch: the GPIO character device's `TorchDevice`.
public struct GPIODevice: TorchDevice {
  /// How the line's input is biased.
  public enum Bias: String, Sendable, Hashable, CaseIterable {
    case pullUp = "pull-up"
    case pullDown = "pull-down"
    case disabled

    /// The line flag that asks for it.
    public var flag: GPIOLineFlags {
      switch self {
      case .pullUp: .biasPullUp
      case .pullDown: .biasPullDown
      case .disabled: .biasDisabled
      }
    }
  }

  /// The consumer name the kernel shows for lines morsetorch holds.
  public static let consumer = "morsetorch"

  /// The line.
  public let line: GPIOLine
  /// Whether active is the low level (reversed wiring).
  public let isActiveLow: Bool
  /// The bias asked for, if any.
  public let bias: Bias?

  /// The line `line`, active low or not, with `bias`.
  public init(line: GPIOLine, isActiveLow: Bool = false, bias: Bias? = nil) {
    self.line = line
    self.isActiveLow = isActiveLow
    self.bias = bias
  }

  /// The line, by chip and offset.
  public var id: DeviceID { .gpioLine(chip: line.chipName, offset: line.offset) }

  /// Checks the line is free (`lineBusy` naming its consumer otherwise) and says where it is.
  public func saveState() throws -> SavedFields {
    let info = try line.chip.lineInfo(offset: line.offset)
    if info.flags.contains(.used) {
      throw GPIOError.lineBusy(chip: line.chipName, offset: line.offset, consumer: info.consumer)
    }
    return SavedGPIOLine(
      chip: line.recordedChipPath, offset: line.offset, isActiveLow: isActiveLow
    ).fields
  }

  /// Requests the line as an output, inactive.
  public func claim(saved: SavedFields) throws -> (torch: any Torch, saved: SavedFields) {
    var flags: GPIOLineFlags = [.output]
    if isActiveLow { flags.insert(.activeLow) }
    if let bias { flags.insert(bias.flag) }
    let output = try line.chip.requestOutput(
      offset: line.offset, flags: flags, consumer: Self.consumer)
    return (GPIOTorch(output: output), saved)
  }

  /// Drives the line inactive once more and releases it (after its transmitter died): only a
  /// chip of this line's GPIO directory (`GPIOChipDirectory.recordedChip`), and only if
  /// `writer` may use it.
  public func restore(_ fields: SavedFields, writer: UserRights?) throws -> [SkippedSetting] {
    guard let saved = SavedGPIOLine(fields: fields) else {
      throw GPIOError.notRecordable(path: fields.value(of: "chip") ?? "?", directory: line.directory.path)
    }
    guard let chip = try line.directory.recordedChip(saved.chip, writer: writer) else {
      return [
        SkippedSetting(
          name: saved.chip, reason: .writerMayNotWrite(writer: writer?.shown ?? "?"))
      ]
    }
    let flags: GPIOLineFlags = saved.isActiveLow ? [.output, .activeLow] : [.output]
    let output = try chip.requestOutput(
      offset: saved.offset, flags: flags, consumer: Self.consumer)
    output.release()
    return []
  }

  /// Whether `saved` is a GPIO line's state (`SavedGPIOLine.init?(fields:)`).
  public func isPlausible(_ saved: SavedFields) -> Bool {
    SavedGPIOLine(fields: saved) != nil
  }
}
