import LinuxSystem

/// What a running transmission writes about itself in the runtime directory.
///
/// `morsetorch status` shows it; after a SIGKILL it is what the next run restores the device
/// from. It is read back as untrusted input: size-limited, decoded strictly, and checked
/// before any of it is written to a device.
public struct TransmissionRecord<SavedState: Codable & Sendable & Hashable>: Codable, Sendable,
  Hashable
{
  /// The format version this build writes and reads.
  public static var currentVersion: Int { 1 }
  /// The longest text kept for display.
  public static var textLimit: Int { 200 }

  /// The format version.
  public var version: Int
  /// The transmitting process.
  public var pid: Int32
  /// The device's lock name (the LED's name).
  public var device: String
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
  /// Streamed input: the line the transmitter is idle waiting for; nil while it sends (and in
  /// records written before this field existed).
  public var waitingForLine: Int?
  /// A repeated message: how many rounds (0: until stopped); nil when it is sent once.
  public var rounds: Int?
  /// A repeated message: the round being sent (1-based).
  public var round: Int?
  /// Several devices sent on together: all their names, in lock order (this one included);
  /// nil for one device alone.
  public var group: [String]?
  /// The device's state before the transmission: what to restore.
  public var saved: SavedState
  /// Who wrote the record: its file's owner, set when it is read from disk (never stored in
  /// it). A restore from it has no more rights than that user.
  public var writerID: UInt32?

  // The device's name is stored under "led", the only kind of device the format had at first.
  private enum CodingKeys: String, CodingKey {
    case version, pid
    case device = "led"
    case text, startedAt, totalSymbols, sentSymbols, line, waitingForLine, rounds, round, group
    case saved
  }

  /// A record of a transmission that is just starting.
  public init(
    pid: Int32, device: String, text: String, totalSymbols: Int?, saved: SavedState,
    startedAt: Double = WallTime.secondsSince1970()
  ) {
    version = Self.currentVersion
    self.pid = pid
    self.device = device
    self.text = text.count > Self.textLimit ? String(text.prefix(Self.textLimit)) + "…" : text
    self.startedAt = startedAt
    self.totalSymbols = totalSymbols
    sentSymbols = 0
    line = 1
    self.saved = saved
  }

  /// Whether every field is one morsetorch could have written for `device`, the saved state
  /// judged by `isPlausible`.
  public func isPlausible(for device: String, isPlausible: (SavedState) -> Bool) -> Bool {
    version == Self.currentVersion && pid > 0 && self.device == device && sentSymbols >= 0
      && line >= 1 && (waitingForLine ?? 1) >= 1 && (totalSymbols ?? 0) >= 0
      && (rounds ?? 0) >= 0 && (round ?? 1) >= 1
      && text.count <= Self.textLimit + 1 && isPlausibleGroup
      && startedAt.isFinite && isPlausible(saved)
  }

  /// The most devices a record names in its group.
  public static var groupLimit: Int { 256 }

  private var isPlausibleGroup: Bool {
    guard let group else { return true }
    return (2...Self.groupLimit).contains(group.count) && group.contains(device)
      && group.allSatisfy { !$0.isEmpty && $0.utf8.count <= 255 }
  }

  /// The record as JSON bytes.
  func encoded() throws -> [UInt8] {
    try RecordJSON.encode(self) + [UInt8(ascii: "\n")]
  }

  /// Decodes and checks a record read from disk; the reason it is unusable otherwise.
  static func decode(
    _ bytes: [UInt8], for device: String, writerID: UInt32?,
    isPlausible: (SavedState) -> Bool
  ) -> Result<TransmissionRecord, RecordProblem> {
    guard !bytes.isEmpty else { return .failure(.init(reason: "it is empty (truncated?)")) }
    var record: TransmissionRecord
    do {
      record = try RecordJSON.decode(TransmissionRecord.self, from: bytes)
      record.writerID = writerID
    } catch {
      return .failure(.init(reason: "it is not a valid record (truncated or corrupt?)"))
    }
    guard record.isPlausible(for: device, isPlausible: isPlausible) else {
      return .failure(.init(reason: "its values are out of range or for another device"))
    }
    return .success(record)
  }
}
