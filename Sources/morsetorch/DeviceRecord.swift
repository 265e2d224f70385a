import GPIODriver
import LEDDriver
import MorsePlayer
import TransmitterControl

/// A device's state record as `status` and `stop` read it, whatever the kind of device (an
/// LED, or a GPIO line: its lock name says which).
enum DeviceRecord {
  /// No record.
  case none
  /// A record that cannot be trusted.
  case corrupt(path: String, reason: String)
  /// A valid record.
  case record(Summary)

  /// What the control commands need of a record.
  struct Summary {
    /// The transmitting process.
    let pid: Int32
    /// What it sends.
    let text: String
    /// The devices sent on together (lock names), or nil for one alone.
    let group: [String]?
    /// The line `status` prints, given the senders waiting.
    let statusLine: ([Int32]) -> String
  }

  /// The record of `name`, read and decoded now.
  static func read(_ name: String, in runtime: RuntimeDirectory) -> DeviceRecord {
    decode(Transmissions.readRecordLater(of: name, in: runtime), of: name)
  }

  /// Decodes a record read earlier, as one of the kind of device `name` is.
  static func decode(_ reading: RecordReading, of name: String) -> DeviceRecord {
    DeviceNames.isGPIOLine(name)
      ? decode(reading, as: GPIODevice.self) : decode(reading, as: LEDDevice.self)
  }

  private static func decode<Device: TorchDevice>(_ reading: RecordReading, as: Device.Type)
    -> DeviceRecord
  {
    switch reading.decoded(as: Device.self) {
    case .none: return .none
    case .corrupt(let path, let reason): return .corrupt(path: path, reason: reason)
    case .record(let record):
      return .record(
        Summary(
          pid: record.pid, text: record.text, group: record.group,
          statusLine: { StatusCommand.summary(of: record, waiting: $0) }))
    }
  }
}
