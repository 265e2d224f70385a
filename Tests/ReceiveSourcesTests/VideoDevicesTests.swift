import LinuxSystem
import MorseTestSupport
import ReceiveSources
import Testing

private let capture: UInt32 = 0x0400_0001
private let output: UInt32 = 0x0400_0002

@Suite final class VideoDevicesTests {
  private let temporary: TemporaryDirectory
  private let directories = Counter()

  init() throws {
    temporary = try TemporaryDirectory("morsetorch-video")
  }

  /// A directory with an empty file for each of `names`.
  private func directory(_ names: [String]) throws -> String {
    let path = temporary.path + "/\(directories.next())"
    try FileSystem.makeDirectory(path, permissions: 0o700)
    for name in names {
      _ = try FileDescriptor.open(path + "/" + name, [.writeOnly, .create, .truncate])
    }
    return path
  }

  /// The devices of `names` in a directory, each a double made by `make` (nil: ENOENT).
  private func devices(
    _ names: [String], _ make: @escaping (String) -> RecordingVideoDevice?
  ) throws -> VideoDevices {
    let path = try directory(names)
    return VideoDevices(directory: path) { path throws(Errno) in
      guard let device = make(path) else { throw Errno.noSuchFile }
      return device
    }
  }

  @Test func theNodesAreListedByNumber() throws {
    let devices = try devices(["video10", "video2", "video0", "media0", "videox"]) { _ in nil }
    #expect(
      devices.paths().map { $0.split(separator: "/").last! } == ["video0", "video2", "video10"])
  }

  @Test func theFirstDeviceThatCapturesStreamsAndGivesALumaIsChosen() throws {
    let devices = try devices(["video0", "video1", "video2", "video3"]) { path in
      switch path.split(separator: "/").last! {
      case "video0": RecordingVideoDevice(path: path, capabilities: output)
      case "video1": RecordingVideoDevice(path: path, formats: ["MJPG"])
      case "video2": RecordingVideoDevice(path: path, formats: ["YUYV"])
      default: RecordingVideoDevice(path: path, formats: ["GREY"])
      }
    }
    let (device, _) = try devices.choose(nil)
    #expect(device.path.hasSuffix("/video2"))
  }

  @Test func withNoneThatWillDoEachIsNamedWithWhy() throws {
    let devices = try devices(["video0", "video1", "video2"]) { path in
      switch path.split(separator: "/").last! {
      case "video0": RecordingVideoDevice(path: path, capabilities: output)
      case "video1": RecordingVideoDevice(path: path, formats: ["MJPG", "H264"])
      default: RecordingVideoDevice(path: path, capabilities: 0x0400_1000)
      }
    }
    do throws(CameraError) {
      _ = try devices.choose(nil)
      Issue.record("a device was chosen")
    } catch {
      let text = error.description
      #expect(text.contains("video0 (fake: Test Camera): not a video capture device"))
      #expect(text.contains("video1 (fake: Test Camera): it offers only MJPG, H264"))
      #expect(
        text.contains("video2 (fake: Test Camera): it captures only through the multi-planar"))
    }
  }

  @Test func anEmptyDirectoryHasNoCamera() throws {
    let devices = try devices([]) { _ in nil }
    #expect(throws: CameraError.noCamera(directory: devices.directory, rejected: [])) {
      try devices.choose(nil)
    }
  }

  @Test func aDeviceOnlyTheGroupMayOpenIsAPermissionProblem() throws {
    let devices = try VideoDevices(directory: directory(["video0"])) { _ throws(Errno) in
      throw Errno.permissionDenied
    }
    #expect(throws: CameraError.permissionDenied(path: devices.directory + "/video0")) {
      try devices.choose(nil)
    }
    #expect(throws: CameraError.permissionDenied(path: devices.directory + "/video0")) {
      try devices.choose(devices.directory + "/video0")
    }
  }

  @Test func aMissingDeviceIsNamedWithTheDevicesThereAre() throws {
    let devices = try devices(["video0"]) { path in
      path.hasSuffix("video0") ? RecordingVideoDevice(path: path) : nil
    }
    let missing = devices.directory + "/video7"
    #expect(
      throws: CameraError.notFound(
        path: missing, available: ["\(devices.directory)/video0 (fake: Test Camera)"])
    ) { try devices.choose(missing) }
  }

  @Test func aNamedDeviceThatWillNotDoSaysWhy() throws {
    let devices = try devices(["video0"]) { path in
      RecordingVideoDevice(path: path, capabilities: output)
    }
    #expect(throws: CameraError.self) { try devices.choose(devices.directory + "/video0") }
  }
}
