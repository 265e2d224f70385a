import Instants
import LinuxSystem
import MorseCore
import ReceiveSources

/// A V4L2 device double: the formats, controls and frames it is given, every control set
/// recorded, and errors on demand.
public final class RecordingVideoDevice: VideoDevice {
  public let path: String
  public var info: VideoDeviceInfo
  public var formats: [UInt32]
  /// What `setPicture` gives back (by default what was asked for, rows tight).
  public var chosenPicture: ((VideoPicture) -> VideoPicture)?
  /// The frame interval the driver takes (nil: it refuses S_PARM).
  public var interval: Duration? = .seconds(1) / 30
  /// The controls, and their values.
  public var controls: [UInt32: VideoControl] = [:]
  public var values: [UInt32: Int32] = [:]
  /// Menu entries each menu control offers.
  public var menus: [UInt32: Set<Int32>] = [:]
  /// Controls whose setting fails, with the error.
  public var failingControls: [UInt32: Errno] = [:]
  /// What `startStreaming` fails with, if anything.
  public var streamingError: Errno?
  /// The frames to give, in order: bytes, sequence number, timestamp, whether damaged.
  public var queued:
    [(bytes: [UInt8], sequence: UInt32, timestamp: MonotonicInstant, damaged: Bool)] =
      []
  /// Every control set, in order: (id, value).
  public private(set) var settings: [(id: UInt32, value: Int32)] = []
  /// The pictures asked for.
  public private(set) var askedPictures: [VideoPicture] = []
  /// The rates asked for.
  public private(set) var askedRates: [Int] = []
  public private(set) var isStreaming = false
  public private(set) var requeued: [Int] = []
  private var current: UnsafeMutableRawBufferPointer?

  /// A capture device at `path` (in no directory: nothing is opened) offering `formats`.
  public init(
    path: String = "/dev/video0", formats: [String] = ["YUYV"],
    capabilities: UInt32 = 0x0400_0001
  ) {
    self.path = path
    self.formats = formats.map(Self.fourcc)
    info = VideoDeviceInfo(
      driver: "fake", card: "Test Camera", bus: "test", capabilities: capabilities)
  }

  deinit { current?.deallocate() }

  /// The fourcc of four characters.
  public static func fourcc(_ name: String) -> UInt32 {
    name.utf8.prefix(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// Adds a control with `value` (a menu offering `menu`, if given).
  public func add(
    _ id: UInt32, name: String, value: Int32, range: ClosedRange<Int32> = 0...1,
    menu: Set<Int32>? = nil, isWritable: Bool = true
  ) {
    controls[id] = VideoControl(
      id: id, name: name, isMenu: menu != nil, minimum: range.lowerBound,
      maximum: range.upperBound, isWritable: isWritable)
    values[id] = value
    if let menu { menus[id] = menu }
  }

  public func describe() throws(Errno) -> VideoDeviceInfo { info }
  public func pixelFormats() throws(Errno) -> [UInt32] { formats }

  public func setPicture(_ picture: VideoPicture) throws(Errno) -> VideoPicture {
    askedPictures.append(picture)
    return chosenPicture?(picture) ?? picture
  }

  public func frameInterval() throws(Errno) -> Duration? { interval }

  public func setFramesPerSecond(_ rate: Int) throws(Errno) -> Duration? {
    askedRates.append(rate)
    guard interval != nil else { throw Errno.inappropriateIOControl }
    return interval
  }

  public func control(_ id: UInt32) throws(Errno) -> VideoControl? { controls[id] }

  public func menu(_ id: UInt32, offers value: Int32) -> Bool {
    menus[id]?.contains(value) ?? false
  }

  public func value(of id: UInt32) throws(Errno) -> Int32 {
    guard let value = values[id] else { throw Errno.invalidArgument }
    return value
  }

  public func setValue(_ value: Int32, of id: UInt32) throws(Errno) {
    if let error = failingControls[id] { throw error }
    guard values[id] != nil else { throw Errno.invalidArgument }
    settings.append((id, value))
    values[id] = value
  }

  public func startStreaming(buffers: Int) throws(Errno) {
    if let streamingError { throw streamingError }
    isStreaming = true
  }

  public func nextBuffer(within timeout: Duration, unlessFired stop: OneShotEvent) throws(Errno)
    -> FilledBuffer?
  {
    guard isStreaming, !stop.isFired, !queued.isEmpty else { return nil }
    let frame = queued.removeFirst()
    current?.deallocate()
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: frame.bytes.count, alignment: 8)
    bytes.copyBytes(from: frame.bytes)
    current = bytes
    return FilledBuffer(
      index: requeued.count % 4, bytes: UnsafeRawBufferPointer(bytes), sequence: frame.sequence,
      timestamp: frame.timestamp, isDamaged: frame.damaged)
  }

  public func requeue(_ buffer: FilledBuffer) throws(Errno) { requeued.append(buffer.index) }

  public func stopStreaming() { isStreaming = false }
}
