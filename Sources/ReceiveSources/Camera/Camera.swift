import Instants
import LinuxSystem
import MorseCore
import MorseReceiving

/// A camera being read: its picture set up, its automatic exposure and gain turned off while
/// it streams, and every control it changed put back by `close()`.
///
/// Set up: a format whose luma it can read (`VideoPixelFormat.preferred`), the size and rate
/// asked for (the driver may choose others: what it chose is used), then the controls:
/// auto-exposure to manual, the exposure's priority over the frame rate off, a fixed
/// exposure of half the frame interval (a light stays sharp, the room dims), auto-gain off.
/// A control the device lacks or refuses is left alone.
public final class Camera {
  /// The device read.
  public let device: any VideoDevice
  /// What the device said it is.
  public let info: VideoDeviceInfo
  /// The picture the driver gives.
  public let picture: VideoPicture
  /// How its bytes hold the luma.
  public let format: VideoPixelFormat
  /// The time between frames.
  public let frameInterval: Duration
  /// The fixed exposure set, if the device took one (else it is taken as the frame interval).
  public private(set) var exposure: Duration?
  /// The controls changed, in the order they were: what `close()` puts back, last first.
  public private(set) var changes: [ControlChange] = []
  /// Frames the driver's counter says were dropped.
  public private(set) var droppedFrames = 0
  private var luma: [UInt8] = []
  private var lastSequence: UInt32?
  private var isOpen = true

  /// A control set while receiving, and its value before.
  public struct ControlChange: Sendable, Equatable {
    /// The control.
    public let id: UInt32
    /// Its name, as the driver gives it.
    public let name: String
    /// Its value before.
    public let before: Int32
    /// The value set.
    public let after: Int32
  }

  /// The frames per second asked for when none is given.
  public static let defaultRate = 30
  /// The size asked for when none is given.
  public static let defaultSize = (width: 640, height: 480)

  /// Sets `device` up (`info` is what it said it is) and starts it streaming.
  public init(
    device: any VideoDevice, info: VideoDeviceInfo, size: (width: Int, height: Int)? = nil,
    framesPerSecond: Int? = nil
  ) throws(CameraError) {
    self.device = device
    self.info = info
    let path = device.path
    let offered = try Self.attempt("list the formats of", path) { () throws(Errno) in
      try device.pixelFormats()
    }
    guard let format = VideoPixelFormat.preferred.first(where: { offered.contains($0.fourcc) })
    else { throw .unusable(Self.formatRejection(path: path, info: info, offered: offered)) }
    let wanted = size ?? Self.defaultSize
    let picture = try Self.attempt("set the picture format of", path) { () throws(Errno) in
      try device.setPicture(
        VideoPicture(width: wanted.width, height: wanted.height, fourcc: format.fourcc))
    }
    guard let chosen = VideoPixelFormat(fourcc: picture.fourcc) else {
      throw .unusable(Self.formatRejection(path: path, info: info, offered: [picture.fourcc]))
    }
    self.picture = picture
    self.format = chosen
    // Drivers without a rate to choose refuse S_PARM: their own rate is used.
    let set = try? device.setFramesPerSecond(framesPerSecond ?? Self.defaultRate)
    let got = set ?? (try? device.frameInterval()) ?? nil
    frameInterval = got ?? .seconds(1) / (framesPerSecond ?? Self.defaultRate)
    adjustControls()
    do throws(Errno) {
      try device.startStreaming(buffers: 4)
    } catch {
      _ = try? restoreControls()
      throw CameraError(error, operation: "start streaming from", path: path)
    }
  }

  /// The next frame, waiting up to `timeout`; nil if none came in that time or `stop` fired.
  public func next(within timeout: Duration, unlessFired stop: OneShotEvent) throws(CameraError)
    -> LightFrame?
  {
    let path = device.path
    while true {
      let filled = try Self.attempt("read a frame from", path) { () throws(Errno) in
        try device.nextBuffer(within: timeout, unlessFired: stop)
      }
      guard let filled else { return nil }
      defer { _ = try? device.requeue(filled) }
      if let last = lastSequence, filled.sequence > last &+ 1 {
        droppedFrames += Int(filled.sequence &- last &- 1)
      }
      lastSequence = filled.sequence
      guard !filled.isDamaged,
        format.luma(
          of: filled.bytes, width: picture.width, height: picture.height,
          bytesPerLine: picture.bytesPerLine, into: &luma)
      else { continue }
      // When the exposure began: the kernel's stamp is the end of the frame unless it says
      // otherwise; without a monotonic stamp, when it arrived.
      let stamp = filled.isMonotonic ? filled.timestamp : MonotonicTime.now()
      let start = filled.isStartOfExposure ? stamp : stamp - (exposure ?? frameInterval)
      return LightFrame(width: picture.width, height: picture.height, luma: luma, time: start)
    }
  }

  /// Stops streaming and puts every changed control back, the last changed first; what
  /// could not be put back is the error (after trying every one). Once only.
  public func close() throws(CameraError) {
    guard isOpen else { return }
    isOpen = false
    device.stopStreaming()
    try restoreControls()
  }

  deinit { _ = try? close() }

  /// Turns automatic exposure and gain off, with a fixed exposure of half a frame interval,
  /// where the device has those controls and takes the values.
  private func adjustControls() {
    if let control = writable(VideoControlID.exposureAuto), control.isMenu,
      device.menu(control.id, offers: VideoControlID.manualExposure)
    {
      change(control, to: VideoControlID.manualExposure)
    }
    if let control = writable(VideoControlID.exposureAutoPriority) {
      change(control, to: control.nearest(to: 0))
    }
    if let control = writable(VideoControlID.exposureAbsolute) {
      // In units of 100 µs.
      let half = Int32(min(1e6, ((frameInterval / 2) / .microseconds(100)).rounded()))
      let value = control.nearest(to: max(1, half))
      if change(control, to: value) { exposure = .microseconds(100) * Int(value) }
    }
    if let control = writable(VideoControlID.autoGain) {
      change(control, to: control.nearest(to: 0))
    }
  }

  private func writable(_ id: UInt32) -> VideoControl? {
    guard let control = try? device.control(id), control.isWritable else { return nil }
    return control
  }

  /// Sets `control` to `value`, noting its value before; whether it now has that value.
  @discardableResult
  private func change(_ control: VideoControl, to value: Int32) -> Bool {
    guard let before = try? device.value(of: control.id) else { return false }
    if before == value { return true }
    guard (try? device.setValue(value, of: control.id)) != nil else { return false }
    changes.append(ControlChange(id: control.id, name: control.name, before: before, after: value))
    return true
  }

  private func restoreControls() throws(CameraError) {
    var failed: [String] = []
    var firstError: Errno?
    for change in changes.reversed() {
      do throws(Errno) {
        try device.setValue(change.before, of: change.id)
      } catch {
        failed.insert(change.name, at: 0)
        firstError = firstError ?? error
      }
    }
    changes = []
    if let firstError {
      throw .restoreFailed(path: device.path, controls: failed, errno: firstError)
    }
  }

  private static func formatRejection(path: String, info: VideoDeviceInfo, offered: [UInt32])
    -> CameraError.Rejection
  {
    let names = offered.map(VideoPixelFormat.name(ofFourCC:))
    let readable = VideoPixelFormat.preferred.map(\.rawValue).joined(separator: ", ")
    return CameraError.Rejection(
      path: path, name: info.card,
      reason: (names.isEmpty
        ? "offers no picture format"
        : "offers only "
          + names.joined(separator: ", "))
        + " (morsetorch reads \(readable); for another, record it and use "
        + VideoError.conversion + " | morsetorch receive --video -)")
  }

  /// `body`, its errno turned into the camera error for `operation` on `path`.
  static func attempt<T>(
    _ operation: String, _ path: String, _ body: () throws(Errno) -> T
  ) throws(CameraError) -> T {
    do throws(Errno) {
      return try body()
    } catch {
      throw CameraError(error, operation: operation, path: path)
    }
  }
}
