import Instants
import LinuxSystem
import MorseCore
import MorseReceiving
import MorseTestSupport
import ReceiveSources
import Testing

/// A webcam as UVC drivers show one: auto-exposure a menu (manual 1, aperture priority 3),
/// exposure in 100 µs, its priority over the frame rate, and automatic gain.
private func webcam(formats: [String] = ["MJPG", "YUYV"]) -> RecordingVideoDevice {
  let device = RecordingVideoDevice(formats: formats)
  device.add(
    VideoControlID.exposureAuto, name: "Auto Exposure", value: 3, range: 0...3, menu: [1, 3])
  device.add(VideoControlID.exposureAutoPriority, name: "Exposure, Dynamic Framerate", value: 1)
  device.add(
    VideoControlID.exposureAbsolute, name: "Exposure Time, Absolute", value: 250,
    range: 3...2047)
  device.add(VideoControlID.autoGain, name: "Gain, Automatic", value: 1)
  return device
}

private func camera(_ device: RecordingVideoDevice) throws -> Camera {
  try Camera(device: device, info: device.info)
}

@Suite struct CameraTests {
  @Test func theCheapestReadableFormatIsChosenAtTheSizeAndRateAskedFor() throws {
    let device = webcam(formats: ["MJPG", "YUYV", "NV12"])
    let camera = try Camera(
      device: device, info: device.info, size: (320, 240), framesPerSecond: 60)
    #expect(camera.format == .nv12)
    #expect(
      device.askedPictures == [VideoPicture(width: 320, height: 240, fourcc: camera.format.fourcc)])
    #expect(device.askedRates == [60])
    #expect(device.isStreaming)
  }

  @Test func withoutSizeOrRate640x480At30IsAskedAndWhatTheDriverChoseIsUsed() throws {
    let device = webcam()
    device.chosenPicture = {
      VideoPicture(width: 352, height: 288, fourcc: $0.fourcc, bytesPerLine: 704)
    }
    device.interval = .seconds(1) / 25
    let camera = try camera(device)
    #expect(device.askedPictures.map { [$0.width, $0.height] } == [[640, 480]])
    #expect(device.askedRates == [30])
    #expect(camera.picture.width == 352 && camera.picture.bytesPerLine == 704)
    #expect(camera.frameInterval == .milliseconds(40))
  }

  @Test func automaticExposureAndGainAreTurnedOffWithAFixedExposureOfHalfAFrame() throws {
    let device = webcam()
    let camera = try camera(device)
    #expect(device.values[VideoControlID.exposureAuto] == 1)
    #expect(device.values[VideoControlID.exposureAutoPriority] == 0)
    #expect(device.values[VideoControlID.exposureAbsolute] == 167)  // 16.7 ms at 30 fps
    #expect(device.values[VideoControlID.autoGain] == 0)
    #expect(camera.exposure == .microseconds(16_700))
    #expect(
      camera.changes.map(\.name) == [
        "Auto Exposure", "Exposure, Dynamic Framerate", "Exposure Time, Absolute",
        "Gain, Automatic",
      ])
  }

  @Test func closingPutsEveryControlBackTheLastChangedFirst() throws {
    let device = webcam()
    let camera = try camera(device)
    let changed = device.settings.count
    try camera.close()
    let restored = device.settings.dropFirst(changed)
    #expect(
      restored.map(\.id) == [
        VideoControlID.autoGain, VideoControlID.exposureAbsolute,
        VideoControlID.exposureAutoPriority, VideoControlID.exposureAuto,
      ])
    #expect(device.values == webcam().values)
    #expect(!device.isStreaming)
    try camera.close()  // once only
    #expect(device.settings.count == changed + 4)
  }

  @Test func controlsTheDeviceLacksRefusesOrAlreadyHasAreLeftAlone() throws {
    let device = RecordingVideoDevice()
    device.add(
      VideoControlID.exposureAuto, name: "Auto Exposure", value: 3, range: 0...3,
      menu: [3])  // aperture priority only: no manual mode
    device.add(VideoControlID.autoGain, name: "Gain, Automatic", value: 0)
    device.add(
      VideoControlID.exposureAbsolute, name: "Exposure", value: 100, range: 1...1000,
      isWritable: false)
    let camera = try camera(device)
    #expect(device.settings.isEmpty)
    #expect(camera.exposure == nil)
    #expect(camera.changes.isEmpty)
  }

  @Test func aBusyDeviceIsBusyAndItsControlsAreAlreadyBack() throws {
    let device = webcam()
    device.streamingError = .busy
    #expect(throws: CameraError.busy(path: "/dev/video0")) { try camera(device) }
    #expect(device.values == webcam().values)
  }

  @Test func aControlThatCannotBePutBackIsNamedAfterTheOthersAreBack() throws {
    let device = webcam()
    let camera = try camera(device)
    device.failingControls[VideoControlID.exposureAbsolute] = .ioError
    #expect(
      throws: CameraError.restoreFailed(
        path: "/dev/video0", controls: ["Exposure Time, Absolute"], errno: .ioError)
    ) { try camera.close() }
    #expect(device.values[VideoControlID.exposureAuto] == 3)
    #expect(device.values[VideoControlID.autoGain] == 1)
  }

  @Test func aCameraOfCompressedPicturesOnlySaysWhatItOffersAndWhatToDo() throws {
    let device = webcam(formats: ["MJPG", "H264"])
    do throws(CameraError) {
      _ = try Camera(device: device, info: device.info)
      Issue.record("a camera of MJPG and H264 was taken")
    } catch {
      #expect(error.description.contains("offers only MJPG, H264"))
      #expect(error.description.contains("--video"))
    }
    #expect(device.settings.isEmpty)
  }

  @Test func framesAreTimedFromTheStartOfTheirExposureDamagedOnesSkippedGapsCounted() throws {
    let device = webcam(formats: ["GREY"])
    let camera = try camera(device)
    let picture = [UInt8](repeating: 9, count: 640 * 480)
    device.queued = [
      (picture, 10, .origin + .seconds(5), false), (picture, 11, .origin + .seconds(6), true),
      (picture, 14, .origin + .seconds(7), false),
    ]
    let stop = OneShotEvent()
    let first = try #require(try camera.next(within: .zero, unlessFired: stop))
    #expect(first.time == .origin + .seconds(5) - .microseconds(16_700))
    #expect(first.luma.count == 640 * 480 && first.luma[0] == 9)
    let next = try #require(try camera.next(within: .zero, unlessFired: stop))
    #expect(next.time == .origin + .seconds(7) - .microseconds(16_700))
    #expect(camera.droppedFrames == 2)
    #expect(device.requeued.count == 3)
    #expect(try camera.next(within: .zero, unlessFired: stop) == nil)
  }

  /// A blinking light a webcam sees, through the driver's YUYV buffers with end-of-frame
  /// timestamps and a dropped frame, read back by the light receiver.
  @Test func aLightSeenThroughTheCameraReadsBack() throws {
    var scene = SyntheticScene()
    scene.exposure = 0.5
    scene.droppedFrames = [40]
    let timing = try MorseTiming(wordsPerMinute: 15)
    let frames = scene.frames(
      showing: MorseEdge.edges(of: MorseSteps(try MorseMessage("PARIS"), timing: timing)))
    let device = webcam()
    device.chosenPicture = { VideoPicture(width: 160, height: 120, fourcc: $0.fourcc) }
    let camera = try camera(device)
    let boot = Duration.seconds(1234)
    for frame in frames {
      let number = UInt32((frame.time.sinceOrigin / (Duration.seconds(1) / 30)).rounded())
      var yuyv = [UInt8](repeating: 128, count: frame.luma.count * 2)
      for (index, value) in frame.luma.enumerated() { yuyv[index * 2] = value }
      device.queued.append(
        (yuyv, number, .origin + boot + frame.time.sinceOrigin + .microseconds(16_700), false))
    }
    var settings = LightReceiver.Settings()
    settings.exposure = camera.exposure
    var light = LightReceiver(settings: settings, frameInterval: camera.frameInterval)
    var receiver = MorseReceiver()
    var text = ""
    while let frame = try camera.next(within: .zero, unlessFired: OneShotEvent()) {
      for case .edge(let edge) in light.receive(frame) {
        for case .text(let piece) in receiver.receive(edge) { text += piece }
      }
    }
    for case .text(let piece) in receiver.finish() { text += piece }
    #expect(text == "PARIS")
    #expect(camera.droppedFrames == 1)
  }
}
