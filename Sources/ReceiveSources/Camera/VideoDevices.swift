import LinuxSystem

/// The video devices of a directory (`/dev`: `video0`, `video1`, ...), and the choice of the
/// camera to read.
public struct VideoDevices {
  /// The environment variable that names another directory than `/dev` (for tests).
  public static let environmentVariable = "MORSETORCH_VIDEO_DIR"

  /// The directory of device nodes.
  public let directory: String
  /// Opens a device node (the kernel's, or a double in the tests).
  public let open: (String) throws(Errno) -> any VideoDevice

  /// The devices in `directory`, each opened with `open`.
  public init(
    directory: String = "/dev",
    open: @escaping (String) throws(Errno) -> any VideoDevice = { path throws(Errno) in
      try KernelVideoDevice(path: path)
    }
  ) {
    self.directory = directory
    self.open = open
  }

  /// The kernel's devices in `MORSETORCH_VIDEO_DIR` if set and non-empty, else `/dev`.
  public init(environment: [String: String]) {
    let override = environment[Self.environmentVariable] ?? ""
    self.init(directory: override.isEmpty ? "/dev" : override)
  }

  /// The `videoN` nodes, by number.
  public func paths() -> [String] {
    let names = (try? FileSystem.directoryEntries(directory)) ?? []
    return names.compactMap { name -> (Int, String)? in
      guard name.hasPrefix("video"), let number = Int(name.dropFirst(5)) else { return nil }
      return (number, name)
    }
    .sorted { $0.0 < $1.0 }
    .map { directory + "/" + $0.1 }
  }

  /// The camera at `path`, or else the first device here that captures video, streams and
  /// offers a format whose luma can be read; the device with what it said it is.
  public func choose(_ path: String?) throws(CameraError) -> (any VideoDevice, VideoDeviceInfo) {
    if let path {
      do throws(CameraError) {
        let (device, info) = try describe(path)
        if let rejection = reject(device, info) { throw .unusable(rejection) }
        return (device, info)
      } catch .notFound(let path, _) {
        throw .notFound(path: path, available: paths().map(shown))
      }
    }
    var rejected: [CameraError.Rejection] = []
    var firstDenied: String?
    for path in paths() {
      do throws(CameraError) {
        let (device, info) = try describe(path)
        guard let rejection = reject(device, info) else { return (device, info) }
        rejected.append(rejection)
      } catch .permissionDenied(let path) {
        firstDenied = firstDenied ?? path
        rejected.append(.init(path: path, name: "", reason: "no permission to open it"))
      } catch {
        rejected.append(.init(path: path, name: "", reason: error.description))
      }
    }
    // Nothing usable and some could not be opened: the permission is what to fix.
    if let firstDenied { throw .permissionDenied(path: firstDenied) }
    throw .noCamera(directory: directory, rejected: rejected)
  }

  /// Opens `path` and asks what it is.
  private func describe(_ path: String) throws(CameraError) -> (any VideoDevice, VideoDeviceInfo) {
    let device = try Camera.attempt("open", path) { () throws(Errno) in try open(path) }
    let info = try Camera.attempt("read the capabilities of", path) { () throws(Errno) in
      try device.describe()
    }
    return (device, info)
  }

  /// Why `device` will not do as a camera, or nil if it will.
  private func reject(_ device: any VideoDevice, _ info: VideoDeviceInfo)
    -> CameraError.Rejection?
  {
    let name = info.card.isEmpty ? info.driver : "\(info.driver): \(info.card)"
    func rejection(_ reason: String) -> CameraError.Rejection {
      .init(path: device.path, name: name, reason: reason)
    }
    if info.capturesOnlyMultiplanar {
      return rejection(
        "it captures only through the multi-planar API, which morsetorch does not read")
    }
    guard info.captures else { return rejection("not a video capture device") }
    guard info.streams else { return rejection("it cannot stream (memory-mapped buffers)") }
    let formats = (try? device.pixelFormats()) ?? []
    guard formats.contains(where: { VideoPixelFormat(fourcc: $0) != nil }) else {
      let names = formats.map(VideoPixelFormat.name(ofFourCC:)).joined(separator: ", ")
      return rejection(
        formats.isEmpty ? "it offers no picture format" : "it offers only \(names) (compressed)")
    }
    return nil
  }

  /// `/dev/video0 (vivid: Webcam 0)`, or the path alone if it cannot be asked.
  private func shown(_ path: String) -> String {
    guard let device = try? open(path), let info = try? device.describe() else { return path }
    return "\(shown: path) (\(info.driver): \(info.card))"
  }
}
