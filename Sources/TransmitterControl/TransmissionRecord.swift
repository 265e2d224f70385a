import DeviceContract
import LinuxSystem

/// What a running transmission writes about itself in the runtime directory.
///
/// `morsetorch status` shows it; after a SIGKILL it is what the next run restores the device
/// from. It is read back as untrusted input: size-limited, read strictly
/// (`RecordFormat`), and checked before any of it is written to a device.
public struct TransmissionRecord: Sendable, Hashable {
  /// The longest text kept for display.
  public static var textLimit: Int { 200 }
  /// The most devices a record names in its group.
  public static var groupLimit: Int { 256 }

  /// The transmitting process.
  public var pid: Int32
  /// The device.
  public var device: DeviceID
  /// The text being sent (cut to `textLimit` characters), or "(standard input)".
  public var text: String
  /// When the transmission started, in seconds since 1970.
  public var startedAt: Double
  /// How many characters the text has, when known in advance (not for standard input).
  public var totalSymbols: Int?
  /// How many characters have begun.
  public var sentSymbols: Int
  /// The input line being sent.
  public var line: Int
  /// Streamed input: the line the transmitter is idle waiting for; nil while it sends.
  public var waitingForLine: Int?
  /// A repeated message: how many rounds (0: until stopped); nil when it is sent once.
  public var rounds: Int?
  /// A repeated message: the round being sent (1-based).
  public var round: Int?
  /// Several devices sent on together: all of them, in lock order (this one included); nil
  /// for one device alone.
  public var group: [DeviceID]?
  /// The device's state before the transmission, as its driver keeps it: what to restore.
  public var saved: SavedFields
  /// Who wrote the record: its file's owner, set when it is read from disk (never stored in
  /// it). A restore from it has no more rights than that user.
  public var writerID: UInt32?

  /// A record of a transmission that is just starting.
  public init(
    pid: Int32, device: DeviceID, text: String, totalSymbols: Int?, saved: SavedFields,
    startedAt: Double = WallTime.secondsSince1970()
  ) {
    self.pid = pid
    self.device = device
    self.text = text.count > Self.textLimit ? String(text.prefix(Self.textLimit)) + "…" : text
    self.startedAt = startedAt
    self.totalSymbols = totalSymbols
    sentSymbols = 0
    line = 1
    self.saved = saved
  }

  /// Whether every field is one morsetorch could have written for `device`.
  public func isPlausible(for device: DeviceID) -> Bool {
    pid > 0 && self.device == device && sentSymbols >= 0
      && line >= 1 && (waitingForLine ?? 1) >= 1 && (totalSymbols ?? 0) >= 0
      && (rounds ?? 0) >= 0 && (round ?? 1) >= 1
      && text.count <= Self.textLimit + 1 && isPlausibleGroup
      && startedAt.isFinite && startedAt >= 0
  }

  private var isPlausibleGroup: Bool {
    guard let group else { return true }
    return (2...Self.groupLimit).contains(group.count) && group.contains(device)
      && Set(group).count == group.count
  }

  /// The record as the bytes of its file (`RecordFormat`).
  func encoded() -> [UInt8] {
    Array(RecordFormat.text(of: self).utf8)
  }

  /// Reads and checks a record's bytes for `device`; the reason it is unusable otherwise.
  static func decode(_ bytes: [UInt8], for device: DeviceID, writerID: UInt32?)
    -> Result<TransmissionRecord, RecordProblem>
  {
    guard !bytes.isEmpty else { return .failure(.init(reason: "it is empty (truncated?)")) }
    var record: TransmissionRecord
    switch RecordFormat.record(from: bytes) {
    case .success(let read): record = read
    case .failure(let problem): return .failure(problem)
    }
    record.writerID = writerID
    guard record.isPlausible(for: device) else {
      return .failure(.init(reason: "its values are out of range or for another device"))
    }
    return .success(record)
  }
}
