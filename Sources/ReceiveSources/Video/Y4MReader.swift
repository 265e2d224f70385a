import LinuxSystem
import MorseCore
import MorseReceiving

/// Reads the frames of a YUV4MPEG2 stream (a file, a FIFO, standard input from ffmpeg) as
/// fast as they come, each timed by its number and the header's frame rate.
///
/// Only the luma plane is kept (brought to 8 bits); the other planes are read past. Before
/// each `read(2)` it polls, so `stop` ends a wait for input at once (a silent pipe, a FIFO
/// no one has opened to write yet), and what was cut short by it is no error.
public final class Y4MReader {
  /// The stream's header.
  public let header: Y4MHeader
  private let stream: ByteStream
  private let stop: OneShotEvent
  private var frameNumber = 0
  private var luma: [UInt8] = []

  /// Reads the header of the stream in `file`; `stop` ends any wait for input. Nil if `stop`
  /// fired before the header came.
  public init?(file: consuming FileDescriptor, stop: OneShotEvent) throws(VideoError) {
    let stream = ByteStream(file: file, stop: stop)
    guard let line = try stream.readLine(limit: Self.lineLimit, frame: nil) else {
      if stop.isFired { return nil }
      throw .notY4M(found: "")
    }
    header = try Y4MHeader(line: line)
    self.stream = stream
    self.stop = stop
  }

  /// The next frame; nil at the end of the stream or once stopped.
  public func next() throws(VideoError) -> LightFrame? {
    guard let line = try stream.readLine(limit: Self.lineLimit, frame: frameNumber) else {
      return nil
    }
    guard Self.isFrameLine(line) else {
      throw .badFrameHeader(number: frameNumber, found: Y4MHeader.shown(line))
    }
    let pixels = header.width * header.height
    if luma.count != pixels { luma = [UInt8](repeating: 0, count: pixels) }
    let complete: Bool
    if header.bitDepth > 8 {
      complete = stream.read16(into: &luma, shift: header.bitDepth - 8)
    } else {
      complete = try stream.read(into: &luma)
    }
    guard complete, try stream.skip(header.otherPlaneBytes) else {
      if stop.isFired { return nil }
      throw .truncatedFrame(number: frameNumber)
    }
    defer { frameNumber += 1 }
    return LightFrame(
      width: header.width, height: header.height, luma: luma,
      time: header.time(ofFrame: frameNumber))
  }
}

extension Y4MReader {
  /// The longest `FRAME` line read (and the header's limit): its parameters, if any, are
  /// read past, and a stream is not kept waiting on one that never ends.
  static let lineLimit = 4096

  /// Whether `line` (or its start) is a frame's header line: `FRAME`, then nothing or a space
  /// and the frame's parameters (`FRAME Ip`), which are ignored.
  static func isFrameLine(_ line: [UInt8]) -> Bool {
    let word = Array("FRAME".utf8)
    return line.starts(with: word) && (line.count == word.count || line[word.count] == 0x20)
  }
}

/// A file's bytes through a buffer, each `read(2)` after a poll that `stop` ends.
private final class ByteStream {
  private let file: FileDescriptor
  private let stop: OneShotEvent
  private var buffer = [UInt8](repeating: 0, count: 1 << 20)
  private var start = 0
  private var end = 0
  private var isAtEnd = false

  init(file: consuming FileDescriptor, stop: OneShotEvent) {
    self.file = file
    self.stop = stop
  }

  /// A line without its newline; nil at the end (or stopped) before any byte of it.
  /// `frame`: the frame it heads (nil: the stream's header), for the error.
  func readLine(limit: Int, frame: Int?) throws(VideoError) -> [UInt8]? {
    var line: [UInt8] = []
    while true {
      guard try fill() else {
        if line.isEmpty || stop.isFired { return nil }
        throw frame.map { .truncatedFrame(number: $0) } ?? .notY4M(found: Y4MHeader.shown(line))
      }
      let newline = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n"))
      let lineEnd = newline ?? end
      // Checked before the bytes are kept, newline or not: a line is never longer than that.
      guard line.count + (lineEnd - start) <= limit else {
        line += buffer[start..<min(lineEnd, start + 64)]
        throw tooLong(line, limit: limit, frame: frame)
      }
      line += buffer[start..<lineEnd]
      start = newline.map { $0 + 1 } ?? end
      if newline != nil { return line }
    }
  }

  /// What a line too long to be a header says it is.
  private func tooLong(_ start: [UInt8], limit: Int, frame: Int?) -> VideoError {
    guard let frame else { return .notY4M(found: Y4MHeader.shown(start)) }
    guard Y4MReader.isFrameLine(Array(start.prefix(6))) else {
      return .badFrameHeader(number: frame, found: Y4MHeader.shown(start))
    }
    return .frameLineTooLong(number: frame, limit: limit)
  }

  /// Fills `bytes`; false if the stream ended first.
  func read(into bytes: inout [UInt8]) throws(VideoError) -> Bool {
    var filled = 0
    while filled < bytes.count {
      guard try fill() else { return false }
      let count = min(end - start, bytes.count - filled)
      bytes.withUnsafeMutableBufferPointer { bytes in
        buffer.withUnsafeBufferPointer { buffer in
          for offset in 0..<count { bytes[filled + offset] = buffer[start + offset] }
        }
      }
      start += count
      filled += count
    }
    return true
  }

  /// Fills `bytes` from little-endian 16-bit samples shifted right by `shift` (to 8 bits).
  func read16(into bytes: inout [UInt8], shift: Int) -> Bool {
    for index in bytes.indices {
      guard let low = try? byte(), let high = try? byte() else { return false }
      let sample = (UInt16(high) << 8 | UInt16(low)) >> UInt16(shift)
      bytes[index] = UInt8(min(sample, 255))
    }
    return true
  }

  /// Reads past `count` bytes; false if the stream ended first.
  func skip(_ count: Int) throws(VideoError) -> Bool {
    var skipped = 0
    while skipped < count {
      guard try fill() else { return false }
      let step = min(end - start, count - skipped)
      start += step
      skipped += step
    }
    return true
  }

  private func byte() throws(VideoError) -> UInt8? {
    guard try fill() else { return nil }
    defer { start += 1 }
    return buffer[start]
  }

  /// Makes sure a byte waits; false at the end of the stream or once stopped.
  private func fill() throws(VideoError) -> Bool {
    if start < end { return true }
    start = 0
    end = 0
    guard !isAtEnd else { return false }
    let result = buffer.withUnsafeMutableBytes { bytes in
      Result { () throws(Errno) in try file.read(into: bytes, unlessFired: stop) }
    }
    switch result {
    case .success(nil): return false
    case .success(0): isAtEnd = true
    case .success(let count?): end = count
    case .failure(let error): throw .readFailed(error)
    }
    return end > 0
  }
}
