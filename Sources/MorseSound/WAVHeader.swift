/// The 44 bytes before a WAV file's samples: RIFF, a `fmt ` chunk for 16-bit mono PCM, and
/// the `data` chunk's header.
public enum WAVHeader {
  /// Its length.
  public static let size = 44

  /// The header for `dataBytes` of samples at `sampleRate`; nil sizes (a stream whose end
  /// is not known when the header goes out) are the largest there are, as `arecord` writes
  /// to a pipe: readers then read to the end.
  public static func bytes(sampleRate: Int, dataBytes: Int?) -> [UInt8] {
    let data = dataBytes.map { UInt32(clamping: $0) } ?? UInt32.max
    let riff = dataBytes.map { UInt32(clamping: $0 + size - 8) } ?? UInt32.max
    var bytes: [UInt8] = Array("RIFF".utf8) + little(riff) + Array("WAVEfmt ".utf8)
    bytes += little(UInt32(16)) + little(UInt16(1)) + little(UInt16(1))
    bytes += little(UInt32(sampleRate)) + little(UInt32(sampleRate * 2))
    bytes += little(UInt16(2)) + little(UInt16(16))
    bytes += Array("data".utf8) + little(data)
    return bytes
  }

  /// Where the two sizes are, to be written once the length is known: the RIFF chunk's
  /// (the file's length less 8) at 4, the data chunk's at 40.
  public static func sizes(dataBytes: Int) -> [(offset: Int, bytes: [UInt8])] {
    [
      (4, little(UInt32(clamping: dataBytes + size - 8))),
      (40, little(UInt32(clamping: dataBytes))),
    ]
  }

  /// Samples as little-endian bytes.
  public static func bytes(of samples: [Int16]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(samples.count * 2)
    for sample in samples { bytes += little(UInt16(bitPattern: sample)) }
    return bytes
  }

  static func little<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
  }
}
