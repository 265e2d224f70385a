import LinuxSystem
import MorsePlayer

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

  /// `gpio/CHIP/OFFSET`: a name no LED can have, since it has a `/`.
  public var lockName: String { Self.lockName(chip: line.chipName, offset: line.offset) }

  /// The lock name of line `offset` of chip `chip`.
  public static func lockName(chip: String, offset: Int) -> String {
    "gpio/\(chip)/\(offset)"
  }

  /// Checks the line is free (`lineBusy` naming its consumer otherwise) and says where it is.
  public func saveState() throws(GPIOError) -> SavedGPIOLine {
    let info = try line.chip.lineInfo(offset: line.offset)
    if info.flags.contains(.used) {
      throw .lineBusy(chip: line.chipName, offset: line.offset, consumer: info.consumer)
    }
    return SavedGPIOLine(
      chip: line.recordedChipPath, offset: line.offset, isActiveLow: isActiveLow)
  }

  /// Requests the line as an output, inactive.
  public func claim(saved: SavedGPIOLine) throws(GPIOError) -> (
    torch: GPIOTorch, saved: SavedGPIOLine
  ) {
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
  public func restore(_ saved: SavedGPIOLine, writer: UserRights?) throws(GPIOError)
    -> [SkippedSetting]
  {
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

  /// `SavedGPIOLine.isPlausible`.
  public static func isPlausible(_ saved: SavedGPIOLine) -> Bool {
    saved.isPlausible
  }
}
