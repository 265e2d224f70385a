import CLinuxSystem
import Instants
import LinuxSystem

/// A V4L2 video device as the camera reader uses it: the kernel's (`KernelVideoDevice`), or a
/// recording double in the tests. Each call is one V4L2 request; errors are the kernel's.
public protocol VideoDevice: AnyObject {
  /// The device node (`/dev/video0`).
  var path: String { get }
  /// VIDIOC_QUERYCAP.
  func describe() throws(Errno) -> VideoDeviceInfo
  /// VIDIOC_ENUM_FMT of the capture queue: every pixel format's fourcc.
  func pixelFormats() throws(Errno) -> [UInt32]
  /// VIDIOC_S_FMT: asks for `picture`, returns what the driver chose.
  func setPicture(_ picture: VideoPicture) throws(Errno) -> VideoPicture
  /// VIDIOC_G_PARM: the time per frame, if the driver says.
  func frameInterval() throws(Errno) -> Duration?
  /// VIDIOC_S_PARM: asks for `rate` frames a second, returns the interval the driver chose.
  func setFramesPerSecond(_ rate: Int) throws(Errno) -> Duration?
  /// VIDIOC_QUERYCTRL: the control `id`, nil if the device has none.
  func control(_ id: UInt32) throws(Errno) -> VideoControl?
  /// VIDIOC_QUERYMENU: whether menu control `id` offers `value`.
  func menu(_ id: UInt32, offers value: Int32) -> Bool
  /// VIDIOC_G_CTRL.
  func value(of id: UInt32) throws(Errno) -> Int32
  /// VIDIOC_S_CTRL.
  func setValue(_ value: Int32, of id: UInt32) throws(Errno)
  /// VIDIOC_REQBUFS, mapping and queueing `buffers` buffers, then VIDIOC_STREAMON.
  func startStreaming(buffers: Int) throws(Errno)
  /// The next filled buffer, waiting up to `timeout`; nil if none came or `stop` fired.
  /// Its bytes stay valid until it is given back with `requeue`.
  func nextBuffer(within timeout: Duration, unlessFired stop: OneShotEvent) throws(Errno)
    -> FilledBuffer?
  /// VIDIOC_QBUF: gives a buffer back to the driver.
  func requeue(_ buffer: FilledBuffer) throws(Errno)
  /// VIDIOC_STREAMOFF and the buffers unmapped; harmless if not streaming.
  func stopStreaming()
}

/// What VIDIOC_QUERYCAP says of a device node.
public struct VideoDeviceInfo: Sendable, Hashable {
  /// The driver (`uvcvideo`, `vivid`).
  public let driver: String
  /// The device's name (`HD Webcam C270`).
  public let card: String
  /// Where it sits (`usb-0000:00:14.0-1`).
  public let bus: String
  /// The node's V4L2_CAP_* bits.
  public let capabilities: UInt32

  /// A device with these values.
  public init(driver: String, card: String, bus: String, capabilities: UInt32) {
    self.driver = driver
    self.card = card
    self.bus = bus
    self.capabilities = capabilities
  }

  static let captureBit = UInt32(MORSE_VIDEO_CAP_VIDEO_CAPTURE)
  static let multiplanarCaptureBit = UInt32(MORSE_VIDEO_CAP_VIDEO_CAPTURE_MPLANE)
  static let streamingBit = UInt32(MORSE_VIDEO_CAP_STREAMING)

  /// Whether it captures video through the single-planar API.
  public var captures: Bool { capabilities & Self.captureBit != 0 }
  /// Whether it captures only through the multi-planar API.
  public var capturesOnlyMultiplanar: Bool {
    !captures && capabilities & Self.multiplanarCaptureBit != 0
  }
  /// Whether it streams (memory-mapped buffers).
  public var streams: Bool { capabilities & Self.streamingBit != 0 }
}

/// A picture format: size, pixel format and the bytes of a row.
public struct VideoPicture: Sendable, Hashable {
  /// Pixels in a row.
  public var width: Int
  /// Rows.
  public var height: Int
  /// The V4L2 fourcc.
  public var fourcc: UInt32
  /// Bytes from one row of the first plane to the next (0: the driver's choice).
  public var bytesPerLine: Int

  /// A picture of these values.
  public init(width: Int, height: Int, fourcc: UInt32, bytesPerLine: Int = 0) {
    self.width = width
    self.height = height
    self.fourcc = fourcc
    self.bytesPerLine = bytesPerLine
  }
}

/// What VIDIOC_QUERYCTRL says of a control.
public struct VideoControl: Sendable, Hashable {
  /// The control's id (V4L2_CID_*).
  public let id: UInt32
  /// Its name as the driver gives it (`Auto Exposure`).
  public let name: String
  /// Whether it is a menu (V4L2_CTRL_TYPE_MENU).
  public let isMenu: Bool
  /// The range and the step of its values.
  public let minimum: Int32
  public let maximum: Int32
  public let step: Int32
  /// Whether it may be set now (not disabled, not read-only).
  public let isWritable: Bool

  /// A control of these values.
  public init(
    id: UInt32, name: String, isMenu: Bool = false, minimum: Int32, maximum: Int32,
    step: Int32 = 1, isWritable: Bool = true
  ) {
    self.id = id
    self.name = name
    self.isMenu = isMenu
    self.minimum = minimum
    self.maximum = maximum
    self.step = step
    self.isWritable = isWritable
  }

  /// `value` brought into its range, on its step.
  func nearest(to value: Int32) -> Int32 {
    let clamped = min(max(value, minimum), maximum)
    guard step > 1 else { return clamped }
    let steps = (Int64(clamped) - Int64(minimum) + Int64(step) / 2) / Int64(step)
    return Int32(min(Int64(maximum), Int64(minimum) + steps * Int64(step)))
  }
}

/// A buffer the driver filled: its bytes and when the frame was taken.
public struct FilledBuffer: @unchecked Sendable {
  /// The buffer's number.
  public let index: Int
  /// The frame's bytes (valid until requeued).
  public let bytes: UnsafeRawBufferPointer
  /// The driver's frame counter: a gap is frames dropped.
  public let sequence: UInt32
  /// The kernel's timestamp, on the monotonic clock if `isMonotonic`.
  public let timestamp: MonotonicInstant
  /// Whether `timestamp` is CLOCK_MONOTONIC's.
  public let isMonotonic: Bool
  /// Whether `timestamp` marks the start of the exposure (else the end of the frame).
  public let isStartOfExposure: Bool
  /// Whether the driver flagged the frame as damaged.
  public let isDamaged: Bool

  /// A buffer of these values.
  public init(
    index: Int, bytes: UnsafeRawBufferPointer, sequence: UInt32, timestamp: MonotonicInstant,
    isMonotonic: Bool = true, isStartOfExposure: Bool = false, isDamaged: Bool = false
  ) {
    self.index = index
    self.bytes = bytes
    self.sequence = sequence
    self.timestamp = timestamp
    self.isMonotonic = isMonotonic
    self.isStartOfExposure = isStartOfExposure
    self.isDamaged = isDamaged
  }
}

/// The V4L2 control ids the reader sets.
public enum VideoControlID {
  /// V4L2_CID_EXPOSURE_AUTO (a menu; 1 is manual).
  public static let exposureAuto = UInt32(MORSE_VIDEO_CID_EXPOSURE_AUTO)
  /// V4L2_CID_EXPOSURE_ABSOLUTE, in 100 µs.
  public static let exposureAbsolute = UInt32(MORSE_VIDEO_CID_EXPOSURE_ABSOLUTE)
  /// V4L2_CID_EXPOSURE_AUTO_PRIORITY: whether auto-exposure may lower the frame rate.
  public static let exposureAutoPriority = UInt32(MORSE_VIDEO_CID_EXPOSURE_AUTO_PRIORITY)
  /// V4L2_CID_AUTOGAIN.
  public static let autoGain = UInt32(MORSE_VIDEO_CID_AUTOGAIN)
  /// V4L2_EXPOSURE_MANUAL.
  static let manualExposure = Int32(MORSE_VIDEO_EXPOSURE_MANUAL)
}
