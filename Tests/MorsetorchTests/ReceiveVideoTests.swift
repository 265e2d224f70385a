import Foundation
import MorseCore
import MorseReceiving
import MorseTestSupport
import Testing

// `morsetorch receive --video`, as a process, on YUV4MPEG2 files written by the tests.

private func run(_ arguments: [String]) throws -> MorsetorchProcess.Outcome {
  let leds = try TemporaryLEDDirectory()
  return try MorsetorchProcess.run(arguments, ledsDirectory: leds.ledsPath)
}

/// A temporary file holding `bytes`, removed by `body`'s end.
private func withFile<Result>(
  _ bytes: [UInt8], _ body: (String) throws -> Result
) throws -> Result {
  let path = NSTemporaryDirectory() + "morsetorch-video-\(UUID().uuidString).y4m"
  try Data(bytes).write(to: URL(fileURLWithPath: path))
  defer { try? FileManager.default.removeItem(atPath: path) }
  return try body(path)
}

private func video(_ text: String, wpm: Int, isLitWhileIdle: Bool = false) throws -> [UInt8] {
  var scene = SyntheticScene()
  scene.hasHeartbeat = true
  scene.isLitWhileIdle = isLitWhileIdle
  let timing = try MorseTiming(wordsPerMinute: wpm)
  let edges = MorseEdge.edges(of: MorseSteps(try MorseMessage(text), timing: timing))
  return Y4MWriting.bytes(of: scene.frames(showing: edges))
}

@Suite("receive --video, as a process")
struct ReceiveVideoTests {
  @Test func aVideoIsReadBackSayingWhereTheLightIsAndItsEdgesCanBeReplayed() throws {
    let edgesPath = NSTemporaryDirectory() + "morsetorch-edges-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: edgesPath) }
    let read = try withFile(try video("CQ TEST", wpm: 15)) { path in
      try run(["receive", "--video", path, "--edges-out", edgesPath])
    }
    #expect(read.exitStatus == 0, "\(read)")
    #expect(read.standardOutput == "CQ TEST\n", "\(read)")
    #expect(read.standardError.contains("light found at 96,32"), "\(read)")
    let edges = try String(contentsOfFile: edgesPath, encoding: .utf8)
    let replay = try run(["receive", "--edges", edgesPath])
    #expect(replay.standardOutput == "CQ TEST\n", "\(replay) \(edges)")
  }

  @Test func aLampLitWhileIdleIsReadWithActiveLow() throws {
    let read = try withFile(try video("CQ TEST", wpm: 12, isLitWhileIdle: true)) { path in
      try run(["receive", "--video", path, "--active-low"])
    }
    #expect(read.exitStatus == 0, "\(read)")
    #expect(read.standardOutput == "CQ TEST\n", "\(read)")
    #expect(!read.standardError.contains("doubtful"), "\(read)")
  }

  @Test func aVideoWithNoLightBlinkingSaysSoAndHowToPointAtIt() throws {
    // Four seconds of the scene with its lamp and heartbeat LED, and the light never on.
    var scene = SyntheticScene()
    scene.hasHeartbeat = true
    let frames = Y4MWriting.bytes(
      of: scene.frames(showing: [], lead: .seconds(2), tail: .seconds(2)))
    let (searched, watched) = try withFile(frames) { path in
      (
        try run(["receive", "--video", path]),
        try run(["receive", "--video", path, "--region", "8,8,16,16"])
      )
    }
    // Nothing read: a status of its own, and why on standard error.
    #expect(searched.exitStatus == 5, "\(searched)")
    #expect(searched.standardOutput.isEmpty, "\(searched)")
    #expect(
      searched.standardError.contains("no light blinking Morse was seen in the 4.0 s of video")
        && searched.standardError.contains("--region X,Y,W,H"), "\(searched)")
    #expect(
      watched.standardError.contains("the region 8,8 (16x16) did not blink in the 4.0 s"),
      "\(watched)")
    let headerOnly = try withFile(Array("YUV4MPEG2 W16 H16 F30:1 Cmono\n".utf8)) { path in
      try run(["receive", "--video", path])
    }
    #expect(headerOnly.exitStatus == 5, "\(headerOnly)")
    #expect(headerOnly.standardError.contains("the video holds no frame"), "\(headerOnly)")
  }

  @Test func aGivenRegionIsReadAndOneOutsideThePictureIsAUsageError() throws {
    try withFile(try video("EE", wpm: 15)) { path in
      let inside = try run(["receive", "--video", path, "--region", "94,34,12,12"])
      #expect(inside.standardOutput == "EE\n", "\(inside)")
      let outside = try run(["receive", "--video", path, "--region", "150,100,20,20"])
      #expect(outside.exitStatus == 64, "\(outside)")
      #expect(outside.standardError.contains("inside the video's 160x120 picture"), "\(outside)")
    }
  }

  @Test(arguments: [
    ("--region", "1,2,3", 64, "X,Y,W,H in pixels"),
    ("--region", "1,2,0,4", 64, "width and height at least 1"),
  ])
  func badRegionsAreRefusedBeforeReading(
    option: String, value: String, status: Int32, message: String
  ) throws {
    let read = try run(["receive", "--video", "/nonexistent", option, value])
    #expect(read.exitStatus == status, "\(read)")
    #expect(read.standardError.contains(message), "\(read)")
  }

  @Test func aStreamThatIsNotAVideoIs65AndAMissingFile74() throws {
    // (A file that is no video is ffmpeg's to decode: ReceiveVideoFileTests.)
    let read = try MorsetorchProcess.run(
      ["receive", "--video", "-"], ledsDirectory: try TemporaryLEDDirectory().ledsPath,
      input: "0.0 1\n0.1 0\n")
    #expect(read.exitStatus == 65, "\(read)")
    #expect(read.standardError.contains("not a YUV4MPEG2 stream"), "\(read)")
    #expect(
      read.standardError.contains("ffmpeg -i FILE -pix_fmt yuv420p -f yuv4mpegpipe -"), "\(read)")
    let missing = try run(["receive", "--video", "/nonexistent/clip.y4m"])
    #expect(missing.exitStatus == 74, "\(missing)")
    #expect(missing.standardError.contains("cannot open /nonexistent/clip.y4m"), "\(missing)")
  }

  @Test func aVideoCutInsideAFrameIs65AfterPrintingWhatWasRead() throws {
    let bytes = try video("CQ", wpm: 15)
    try withFile(Array(bytes.dropLast(100))) { path in
      let read = try run(["receive", "--video", path])
      #expect(read.exitStatus == 65, "\(read)")
      #expect(read.standardOutput == "CQ\n", "\(read)")
      #expect(read.standardError.contains("the video ends inside frame"), "\(read)")
    }
  }

  @Test func anEdgesOutFileThatCannotBeCreatedIs73() throws {
    let read = try run(["receive", "--edges", "-", "--edges-out", "/nonexistent/edges"])
    #expect(read.exitStatus == 73, "\(read)")
    #expect(read.standardError.contains("cannot create /nonexistent/edges"), "\(read)")
  }

  @Test func onlyOneSourceAndTheRegionOnlyWithAVideo() throws {
    let both = try run(["receive", "--video", "a", "--edges", "b"])
    #expect(both.exitStatus == 64, "\(both)")
    let region = try run(["receive", "--edges", "-", "--region", "1,1,2,2"])
    #expect(region.exitStatus == 64, "\(region)")
    #expect(region.standardError.contains("--region"), "\(region)")
  }
}

/// `receive --camera` where no real camera can be: a directory of plain files standing in
/// for /dev (MORSETORCH_VIDEO_DIR).
@Suite("receive --camera, as a process")
struct ReceiveCameraTests {
  private func run(_ arguments: [String], devices: [String]) throws -> MorsetorchProcess.Outcome {
    let directory = NSTemporaryDirectory() + "morsetorch-dev-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for name in devices {
      try Data().write(to: URL(fileURLWithPath: directory + "/" + name))
    }
    let leds = try TemporaryLEDDirectory()
    return try MorsetorchProcess.run(
      arguments.map { $0.replacingOccurrences(of: "DIR", with: directory) },
      ledsDirectory: leds.ledsPath, environment: ["MORSETORCH_VIDEO_DIR": directory])
  }

  @Test func noVideoDeviceIs69() throws {
    let read = try run(["receive", "--camera"], devices: [])
    #expect(read.exitStatus == 69, "\(read)")
    #expect(read.standardError.contains("no camera: there is no video device in"), "\(read)")
  }

  @Test func aDeviceThatIsNotV4L2IsNamedWithWhyAndIs69() throws {
    let any = try run(["receive", "--camera", "--timeout", "1s"], devices: ["video0", "media0"])
    #expect(any.exitStatus == 69, "\(any)")
    #expect(any.standardError.contains("/video0 is not a V4L2 video device"), "\(any)")
    let named = try run(["receive", "--camera", "DIR/video0"], devices: ["video0"])
    #expect(named.exitStatus == 69, "\(named)")
    #expect(named.standardError.contains("/video0 is not a V4L2 video device"), "\(named)")
  }

  @Test func aMissingDeviceIs69NamingTheOnesThereAre() throws {
    let read = try run(["receive", "--camera", "DIR/video4"], devices: ["video0"])
    #expect(read.exitStatus == 69, "\(read)")
    #expect(read.standardError.contains("/video4; the video devices here: "), "\(read)")
    #expect(read.standardError.contains("/video0"), "\(read)")
  }

  @Test(arguments: [
    (["--camera", "--size", "640"], "WIDTHxHEIGHT in pixels"),
    (["--camera", "--size", "8x8"], "16 to 8192 each"),
    (["--camera", "--fps", "0"], "frames a second, 1-240"),
    (["--edges", "-", "--size", "640x480"], "--size"),
    (["--video", "-", "--fps", "30"], "--fps"),
    (["--camera", "--video", "-"], "--video"),
  ])
  func badCameraOptionsAreUsageErrors(arguments: [String], message: String) throws {
    let read = try run(["receive"] + arguments, devices: [])
    #expect(read.exitStatus == 64, "\(read)")
    #expect(read.standardError.contains(message), "\(read)")
  }
}
