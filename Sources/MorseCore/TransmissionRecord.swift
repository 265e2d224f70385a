import FoundationEssentials

/// What a running transmission writes about itself in the runtime directory.
///
/// `morsetorch status` shows it; after a SIGKILL it is what the next run restores the LED
/// from. It is read back as untrusted input: size-limited, decoded strictly, and checked with
/// `isPlausible` before any of it is written to an LED.
public struct TransmissionRecord: Codable, Sendable, Hashable {
  /// The format version this build writes and reads.
  public static let currentVersion = 1
  /// The longest text kept for display.
  public static let textLimit = 200

  /// The format version.
  public var version: Int
  /// The transmitting process.
  public var pid: Int32
  /// The LED's name.
  public var led: String
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
  /// The LED's state before the transmission: what to restore.
  public var saved: SavedLEDState

  /// A record of a transmission that is just starting.
  public init(
    pid: Int32, led: String, text: String, totalSymbols: Int?, saved: SavedLEDState,
    startedAt: Double = Date().timeIntervalSince1970
  ) {
    version = Self.currentVersion
    self.pid = pid
    self.led = led
    self.text = text.count > Self.textLimit ? String(text.prefix(Self.textLimit)) + "…" : text
    self.startedAt = startedAt
    self.totalSymbols = totalSymbols
    sentSymbols = 0
    line = 1
    self.saved = saved
  }

  /// Whether every field is one morsetorch could have written for `led`.
  public func isPlausible(for led: String) -> Bool {
    version == Self.currentVersion && pid > 0 && self.led == led && sentSymbols >= 0
      && line >= 1 && (totalSymbols ?? 0) >= 0 && text.count <= Self.textLimit + 1
      && startedAt.isFinite && saved.isPlausible
  }

  /// The record as JSON bytes.
  func encoded() throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return Array(try encoder.encode(self)) + [UInt8(ascii: "\n")]
  }

  /// Decodes and checks a record read from disk; the reason it is unusable otherwise.
  static func decode(_ bytes: [UInt8], for led: String) -> Result<TransmissionRecord, RecordProblem>
  {
    guard !bytes.isEmpty else { return .failure(.init(reason: "it is empty (truncated?)")) }
    let record: TransmissionRecord
    do {
      record = try JSONDecoder().decode(TransmissionRecord.self, from: Data(bytes))
    } catch {
      return .failure(.init(reason: "it is not a valid record (truncated or corrupt?)"))
    }
    guard record.isPlausible(for: led) else {
      return .failure(.init(reason: "its values are out of range or for another LED"))
    }
    return .success(record)
  }
}

/// Why a state record on disk cannot be used.
public struct RecordProblem: Error, Hashable, CustomStringConvertible {
  /// What is wrong with it.
  public let reason: String
  /// The reason.
  public var description: String { reason }
}

extension TransmissionRecord {
  /// One line for `morsetorch status`: what, by whom, how far along, for how long.
  public func summary(now: Double = Date().timeIntervalSince1970, waiting: [Int32] = []) -> String {
    var progress = "\(sentSymbols)"
    if let totalSymbols { progress += " of \(totalSymbols)" }
    progress += " characters"
    if totalSymbols == nil { progress += ", line \(line)" }
    let seconds = max(0, now - startedAt)
    let elapsed =
      seconds < 60 ? "\(Int(seconds)) s" : "\(Int(seconds) / 60) min \(Int(seconds) % 60) s"
    var line = "\(led): sending \"\(text)\" (pid \(pid)): \(progress) begun, for \(elapsed)"
    if !waiting.isEmpty {
      line += "; \(waiting.count) waiting (pid \(waiting.map(String.init).joined(separator: ", ")))"
    }
    return line
  }
}
