import CLinuxSystem
import Instants
import LinuxSystem

/// A V4L2 device node of the kernel (`/dev/videoN`), memory-mapped streaming on its
/// single-planar capture queue.
public final class KernelVideoDevice: VideoDevice {
  public let path: String
  private let file: FileDescriptor
  private var mapped: [UnsafeRawBufferPointer] = []
  private var isStreaming = false

  /// Opens `path` read-write, non-blocking (a capture device is only read through its queue);
  /// anything but a character device is `ENOTTY`, before any V4L2 request is made of it.
  public init(path: String) throws(Errno) {
    let file = try FileDescriptor.open(path, [.readWrite, .nonBlocking])
    guard try file.status().isCharacterDevice else { throw Errno.inappropriateIOControl }
    self.file = file
    self.path = path
  }

  deinit { stopStreaming() }

  public func describe() throws(Errno) -> VideoDeviceInfo {
    var device = morse_video_device()
    guard morse_video_query(file.rawValue, &device) == 0 else { throw Errno.current }
    return VideoDeviceInfo(
      driver: Self.text(&device.driver), card: Self.text(&device.card),
      bus: Self.text(&device.bus), capabilities: device.capabilities)
  }

  public func pixelFormats() throws(Errno) -> [UInt32] {
    var formats: [UInt32] = []
    var fourcc: UInt32 = 0
    while morse_video_format_at(file.rawValue, UInt32(formats.count), &fourcc) == 0 {
      formats.append(fourcc)
      if formats.count > 256 { break }
    }
    let error = Errno.current
    guard formats.count > 0 || error == .invalidArgument else { throw error }
    return formats
  }

  public func setPicture(_ picture: VideoPicture) throws(Errno) -> VideoPicture {
    var raw = morse_video_picture(
      width: UInt32(clamping: picture.width), height: UInt32(clamping: picture.height),
      fourcc: picture.fourcc, bytes_per_line: 0, image_size: 0)
    guard morse_video_set_format(file.rawValue, &raw) == 0 else { throw Errno.current }
    return VideoPicture(
      width: Int(raw.width), height: Int(raw.height), fourcc: raw.fourcc,
      bytesPerLine: Int(raw.bytes_per_line))
  }

  public func frameInterval() throws(Errno) -> Duration? {
    var numerator: UInt32 = 0
    var denominator: UInt32 = 0
    guard morse_video_get_interval(file.rawValue, &numerator, &denominator) == 0 else {
      throw Errno.current
    }
    return Self.interval(numerator, denominator)
  }

  public func setFramesPerSecond(_ rate: Int) throws(Errno) -> Duration? {
    var numerator: UInt32 = 1
    var denominator = UInt32(clamping: rate)
    guard morse_video_set_interval(file.rawValue, &numerator, &denominator) == 0 else {
      throw Errno.current
    }
    return Self.interval(numerator, denominator)
  }

  public func control(_ id: UInt32) throws(Errno) -> VideoControl? {
    var raw = morse_video_control()
    guard morse_video_query_control(file.rawValue, id, &raw) == 0 else {
      let error = Errno.current
      if error == .invalidArgument || error == .inappropriateIOControl { return nil }
      throw error
    }
    let unwritable =
      UInt32(MORSE_VIDEO_CTRL_FLAG_DISABLED) | UInt32(MORSE_VIDEO_CTRL_FLAG_READ_ONLY)
    return VideoControl(
      id: id, name: Self.text(&raw.name), isMenu: raw.type == UInt32(MORSE_VIDEO_CTRL_TYPE_MENU),
      minimum: raw.minimum, maximum: raw.maximum, step: raw.step,
      isWritable: raw.flags & unwritable == 0)
  }

  public func menu(_ id: UInt32, offers value: Int32) -> Bool {
    morse_video_menu_has(file.rawValue, id, value) == 1
  }

  public func value(of id: UInt32) throws(Errno) -> Int32 {
    var value: Int32 = 0
    guard morse_video_get_control(file.rawValue, id, &value) == 0 else { throw Errno.current }
    return value
  }

  public func setValue(_ value: Int32, of id: UInt32) throws(Errno) {
    guard morse_video_set_control(file.rawValue, id, value) == 0 else { throw Errno.current }
  }

  public func startStreaming(buffers: Int) throws(Errno) {
    let granted = morse_video_request_buffers(file.rawValue, UInt32(buffers))
    guard granted >= 0 else { throw Errno.current }
    guard granted > 0 else { throw Errno.noSpace }
    do throws(Errno) {
      for index in 0..<Int(granted) {
        var start: UnsafeMutableRawPointer?
        var length = 0
        guard morse_video_map_buffer(file.rawValue, UInt32(index), &start, &length) == 0 else {
          throw Errno.current
        }
        mapped.append(UnsafeRawBufferPointer(start: start, count: length))
        guard morse_video_queue(file.rawValue, UInt32(index)) == 0 else { throw Errno.current }
      }
      guard morse_video_stream(file.rawValue, 1) == 0 else { throw Errno.current }
      isStreaming = true
    } catch {
      stopStreaming()
      throw error
    }
  }

  public func nextBuffer(within timeout: Duration, unlessFired stop: OneShotEvent) throws(Errno)
    -> FilledBuffer?
  {
    var raw = morse_video_buffer()
    while morse_video_dequeue(file.rawValue, &raw) != 0 {
      let error = Errno.current
      guard error == .wouldBlock else { throw error }
      guard file.waitUntilReadable(within: timeout, unlessFired: stop) == .readable else {
        return nil
      }
    }
    guard Int(raw.index) < mapped.count else { throw Errno.ioError }
    let buffer = mapped[Int(raw.index)]
    let timestampKind = raw.flags & UInt32(MORSE_VIDEO_BUF_FLAG_TIMESTAMP_MASK)
    return FilledBuffer(
      index: Int(raw.index),
      bytes: UnsafeRawBufferPointer(rebasing: buffer[0..<min(Int(raw.bytes_used), buffer.count)]),
      sequence: raw.sequence, timestamp: .origin + .nanoseconds(raw.timestamp_ns),
      isMonotonic: timestampKind == UInt32(MORSE_VIDEO_BUF_FLAG_TIMESTAMP_MONOTONIC),
      isStartOfExposure: raw.flags & UInt32(MORSE_VIDEO_BUF_FLAG_TSTAMP_SRC_MASK)
        == UInt32(MORSE_VIDEO_BUF_FLAG_TSTAMP_SRC_SOE),
      isDamaged: raw.flags & UInt32(MORSE_VIDEO_BUF_FLAG_ERROR) != 0)
  }

  public func requeue(_ buffer: FilledBuffer) throws(Errno) {
    guard morse_video_queue(file.rawValue, UInt32(buffer.index)) == 0 else { throw Errno.current }
  }

  public func stopStreaming() {
    if isStreaming { _ = morse_video_stream(file.rawValue, 0) }
    isStreaming = false
    for buffer in mapped {
      morse_video_unmap_buffer(UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count)
    }
    if !mapped.isEmpty { _ = morse_video_request_buffers(file.rawValue, 0) }
    mapped = []
  }

  private static func interval(_ numerator: UInt32, _ denominator: UInt32) -> Duration? {
    guard numerator > 0, denominator > 0 else { return nil }
    return .nanoseconds(Int64(numerator) * 1_000_000_000 / Int64(denominator))
  }

  private static func text<T>(_ field: inout T) -> String {
    withUnsafeBytes(of: &field) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
  }
}
