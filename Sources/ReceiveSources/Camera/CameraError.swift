import LinuxSystem

/// Why a camera cannot be read.
public enum CameraError: Error, Equatable, CustomStringConvertible {
  /// Nothing at the path; `available`: the video devices there are.
  case notFound(path: String, available: [String])
  /// No device to choose from: each video device there, with why it will not do.
  case noCamera(directory: String, rejected: [Rejection])
  /// Not a V4L2 device at all.
  case notAVideoDevice(path: String)
  /// A video device that will not do as a camera (output only, no streaming, ...).
  case unusable(Rejection)
  /// Only root or the group may open it.
  case permissionDenied(path: String)
  /// Another program streams from it.
  case busy(path: String)
  /// It went away while being read (unplugged).
  case vanished(path: String)
  /// A request the device refused.
  case failed(operation: String, path: String, errno: Errno)
  /// Controls that could not be put back as they were: their names.
  case restoreFailed(path: String, controls: [String], errno: Errno)

  /// A video device that was passed over, and why.
  public struct Rejection: Sendable, Equatable {
    /// Its path.
    public let path: String
    /// What it is (`vivid: Webcam 0`), if it said.
    public let name: String
    /// Why it will not do.
    public let reason: String

    public init(path: String, name: String, reason: String) {
      self.path = path
      self.name = name
      self.reason = reason
    }

    /// `/dev/video1 (vivid): a video output device`.
    var shown: String {
      name.isEmpty ? "\(shown: path): \(reason)" : "\(shown: path) (\(name)): \(reason)"
    }
  }

  public var description: String {
    switch self {
    case .notFound(let path, let available):
      "no video device \(shown: path)"
        + (available.isEmpty
          ? "; there is none (is a camera plugged in? its driver loaded?)"
          : "; the video devices here: " + available.joined(separator: ", "))
    case .noCamera(let directory, let rejected) where rejected.isEmpty:
      "no camera: there is no video device in \(shown: directory) (is one plugged in? its driver "
        + "loaded?)"
    case .noCamera(_, let rejected):
      "no camera to read: " + rejected.map(\.shown).joined(separator: "; ")
    case .notAVideoDevice(let path): "\(shown: path) is not a V4L2 video device"
    case .unusable(let rejection): "cannot read \(rejection.shown)"
    case .permissionDenied(let path): "no permission to open \(shown: path)"
    case .busy(let path):
      "\(shown: path) is busy: another program is using the camera; close it and try again"
    case .vanished(let path): "\(shown: path) went away (the camera was unplugged?)"
    case .failed(let operation, let path, let errno): "cannot \(operation) \(shown: path): \(errno)"
    case .restoreFailed(let path, let controls, let errno):
      "could not put back \(controls.joined(separator: ", ")) of \(shown: path): \(errno); set "
        + "them again with v4l2-ctl -d \(shown: path) --set-ctrl"
    }
  }

  /// The error for `errno` from `operation` on `path`.
  init(_ errno: Errno, operation: String, path: String) {
    switch errno {
    case .noSuchFile: self = .notFound(path: path, available: [])
    case .permissionDenied, .notPermitted: self = .permissionDenied(path: path)
    case .busy: self = .busy(path: path)
    case .noSuchDevice, .noSuchDeviceOrAddress: self = .vanished(path: path)
    case .inappropriateIOControl: self = .notAVideoDevice(path: path)
    default: self = .failed(operation: operation, path: path, errno: errno)
    }
  }
}
