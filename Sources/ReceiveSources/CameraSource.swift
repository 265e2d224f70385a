import Instants
import LinuxSystem
import MorseReceiving

/// `--camera [DEVICE]`: the frames of a V4L2 camera, timed by the kernel, until `stop` fires
/// (a signal, `--timeout`); while none comes, the time now every 250 ms. Its automatic
/// exposure and gain are off meanwhile, and closing puts them back.
public final class CameraSource: ReceiveSource {

  private let camera: Camera
  private let stop: OneShotEvent

  /// Chooses the camera at `path` (nil: the first of `devices` that streams) and starts it,
  /// asking for `size` and `fps` (nil: the defaults).
  public init(
    _ path: String?, size: (width: Int, height: Int)?, fps: Int?, devices: VideoDevices,
    stop: OneShotEvent
  ) throws(CameraError) {
    let (device, info) = try devices.choose(path)
    camera = try Camera(device: device, info: info, size: size, framesPerSecond: fps)
    self.stop = stop
  }

  /// The picture the driver chose, its exposure, and its set-up to say.
  public var kind: ReceiveSourceKind {
    .frames(
      ReceivedPicture(
        width: camera.picture.width, height: camera.picture.height,
        frameInterval: camera.frameInterval, exposure: camera.exposure,
        origin: .camera,
        openingNote: Self.describe(camera)))
  }

  /// The next frame, or the time now when none came within 250 ms; nil once stopped.
  public func next() throws -> MorseReading.Input? {
    guard !stop.isFired else { return nil }
    if let frame = try camera.next(within: .milliseconds(250), unlessFired: stop) {
      return .frame(frame)
    }
    return .quiet(until: MonotonicTime.now())
  }

  /// The frames the driver dropped, if any.
  public func endingNotes() -> [String] {
    camera.droppedFrames > 0 ? ["the camera dropped \(camera.droppedFrames) frames"] : []
  }

  /// Stops streaming and puts every control changed back.
  public func close() throws(CameraError) {
    try camera.close()
  }

  /// `camera /dev/video0 (uvcvideo: HD Webcam): 640x480 YUYV, 30 fps; Auto Exposure, ...
  /// changed (put back at the end)`.
  private static func describe(_ camera: Camera) -> String {
    let picture = camera.picture
    let rate = Double(Duration.seconds(1) / camera.frameInterval)
    let fps = (rate * 10).rounded() / 10
    var text =
      "camera \(camera.device.path) (\(camera.info.driver): \(camera.info.card)): "
      + "\(picture.width)x\(picture.height) \(camera.format.rawValue), "
      + "\(fps == fps.rounded() ? String(Int(fps)) : String(fps)) fps"
    if let exposure = camera.exposure {
      text += ", exposure \(exposure.millisecondsText) ms"
    }
    let changed = camera.changes.map(\.name)
    if !changed.isEmpty {
      text += "; set: \(changed.joined(separator: ", ")) (put back at the end)"
    }
    return text
  }
}
