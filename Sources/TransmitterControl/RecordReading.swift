import DeviceContract

/// A record read from disk but not yet decoded (decoding costs more than reading, and a rerun
/// should signal the holder as soon as it can).
public enum RecordReading: Sendable {
  /// Nothing to decode: there was no record, or it could not be read.
  case done(none: Bool, path: String, reason: String)
  /// The raw bytes of the record at `path`, for device `name`, written by user `writerID`.
  case bytes([UInt8], path: String, name: String, writerID: UInt32)

  /// Reads and checks the record as one of `device`.
  public func decoded(for device: DeviceID) -> RecordContent {
    switch self {
    case .done(let isNone, let path, let reason):
      return isNone ? .none : .corrupt(path: path, reason: reason)
    case .bytes(let bytes, let path, _, let writerID):
      switch TransmissionRecord.decode(bytes, for: device, writerID: writerID) {
      case .success(let record): return .record(record)
      case .failure(let problem): return .corrupt(path: path, reason: problem.reason)
      }
    }
  }
}
