import Foundation
import Glibc
import MorseCore
import MorseReceiving
import MorseTestSupport
import Testing

/// Debian's ffmpeg, which the tests make their videos with.
private let ffmpeg = "/usr/bin/ffmpeg"

/// `receive --video FILE` on a video as a user has it: an H.264 MP4 made here by Debian's
/// ffmpeg, decoded by the ffmpeg that morsetorch starts.
@Suite(
  "receive --video on any video file, through ffmpeg",
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: ffmpeg),
    "needs ffmpeg (Debian's ffmpeg package)"))
struct ReceiveVideoFileTests {
  /// `text` at `wpm` in made-up frames (a lamp, a heartbeat LED, noise), and its edges.
  private func scene(_ text: String, wpm: Int) throws -> (y4m: [UInt8], edges: [MorseEdge]) {
    var scene = SyntheticScene()
    scene.hasHeartbeat = true
    let timing = try MorseTiming(wordsPerMinute: wpm)
    let edges = MorseEdge.edges(of: MorseSteps(try MorseMessage(text), timing: timing))
    return (Y4MWriting.bytes(of: scene.frames(showing: edges)), edges)
  }

  /// `y4m` encoded by ffmpeg with `options` into the file at `path`.
  private func encode(_ y4m: [UInt8], _ options: [String], into path: String) throws {
    let input = NSTemporaryDirectory() + "morsetorch-scene-\(UUID().uuidString).y4m"
    try Data(y4m).write(to: URL(fileURLWithPath: input))
    defer { try? FileManager.default.removeItem(atPath: input) }
    let made = try ProgramRun(
      ffmpeg, ["-loglevel", "error", "-y", "-i", input] + options + [path])
    try #require(made.status == 0, "\(made.output)")
  }

  private func run(_ arguments: [String], path: [String] = ["/usr/bin", "/bin"]) throws
    -> MorsetorchProcess.Outcome
  {
    let leds = try TemporaryLEDDirectory()
    return try MorsetorchProcess.run(
      arguments, ledsDirectory: leds.ledsPath,
      environment: ["PATH": path.joined(separator: ":")])
  }

  /// Before: ffmpeg read a name with a colon as a protocol (`12:30.mp4`: "Did you mean
  /// file:12:30.mp4?", 65).
  @Test func anMP4IsReadAsItIs() throws {
    let directory = try TemporaryDirectory("morsetorch-mp4")
    let clip = directory.path + "/12:30.mp4"
    try encode(
      try scene("CQ TEST", wpm: 15).y4m,
      ["-c:v", "libx264", "-crf", "23", "-bf", "2", "-pix_fmt", "yuv420p"], into: clip)
    let read = try run(["receive", "--video", clip])
    #expect(read.exitStatus == 0, "\(read)")
    #expect(read.standardOutput == "CQ TEST\n", "\(read)")
    // Named as a user in its directory names it.
    let relative = try MorsetorchProcess.run(
      ["receive", "--video", "12:30.mp4"], ledsDirectory: try TemporaryLEDDirectory().ledsPath,
      environment: ["PATH": "/usr/bin:/bin"],
      launch: .shell("cd '\(directory.path)'", asNobody: false))
    #expect(relative.exitStatus == 0, "\(relative)")
    #expect(relative.standardOutput == "CQ TEST\n", "\(relative)")
  }

  /// Before: frames timed by their number, a video with frames missing (a phone's variable
  /// frame rate) ran a third fast. Each frame is now timed as the file has it.
  @Test func aVariableFrameRateIsTimedByEachFramesOwnTimestamp() throws {
    let directory = try TemporaryDirectory("morsetorch-vfr")
    let clip = directory.path + "/vfr.mp4"
    let (y4m, sent) = try scene("PARIS", wpm: 10)
    // Every third frame dropped: 20 frames a second, unevenly.
    try encode(
      y4m,
      [
        "-vf", "select='not(eq(mod(n\\,3)\\,1))'", "-fps_mode", "vfr", "-c:v", "libx264",
        "-crf", "20", "-pix_fmt", "yuv420p",
      ], into: clip)
    let edgesPath = directory.path + "/seen.edges"
    let read = try run(["receive", "--video", clip, "--edges-out", edgesPath])
    #expect(read.exitStatus == 0, "\(read)")
    #expect(read.standardOutput == "PARIS\n", "\(read)")
    // Each mark and gap as long as sent, within a frame and a half (50 ms) at 30 fps.
    let seen = try String(contentsOfFile: edgesPath, encoding: .utf8).split(separator: "\n")
      .filter { !$0.hasPrefix("#") }.compactMap { Double($0.split(separator: " ")[0]) }
    try #require(seen.count == sent.count, "\(seen) against \(sent.count) edges")
    let sentTimes = sent.map { Double($0.time.sinceOrigin / .milliseconds(1)) / 1000 }
    for index in 1..<seen.count {
      let error = (seen[index] - seen[index - 1]) - (sentTimes[index] - sentTimes[index - 1])
      #expect(abs(error) < 0.05, "element \(index) off by \(error) s")
    }
  }

  @Test func whatFFmpegCannotDecodeIs65InItsWordsAndWithoutFFmpeg69() throws {
    let directory = try TemporaryDirectory("morsetorch-notvideo")
    let path = directory.path + "/notes.txt"
    try "0.0 1\n0.1 0\n".write(toFile: path, atomically: false, encoding: .utf8)
    let read = try run(["receive", "--video", path])
    #expect(read.exitStatus == 65, "\(read)")
    #expect(read.standardError.contains("ffmpeg cannot decode the video: "), "\(read)")
    #expect(read.standardError.contains("Invalid data"), "\(read)")
    let missing = try run(["receive", "--video", path], path: ["/nonexistent"])
    #expect(missing.exitStatus == 69, "\(missing)")
    #expect(missing.standardError.contains("sudo apt install ffmpeg"), "\(missing)")
  }
}

/// `receive --video FILE` with a stand-in for ffmpeg on `PATH`: what the real one does not do
/// on demand.
@Suite("receive --video with a stand-in ffmpeg")
struct ReceiveVideoDecoderStandInTests {
  /// Before: a stream that broke while ffmpeg still ran hung `receive` (waiting for an exit
  /// that a blocked writer never makes).
  @Test func aBrokenStreamFromADecoderStillRunningIsSaidAtOnce() throws {
    let directory = try TemporaryDirectory("morsetorch-fake-ffmpeg")
    chmod(directory.path, 0o755)
    let fake = directory.path + "/ffmpeg"
    try writeExecutable(
      Array("#!/bin/sh\nprintf 'YUV4MPEG2 W2 H2 F30:1 Cmono\\nBOGUS\\n'\nexec sleep 60\n".utf8),
      to: fake)
    let clip = directory.path + "/clip.mp4"
    try "not a video".write(toFile: clip, atomically: false, encoding: .utf8)
    let leds = try TemporaryLEDDirectory()
    let read = try MorsetorchProcess.run(
      ["receive", "--video", clip], ledsDirectory: leds.ledsPath,
      environment: ["PATH": directory.path + ":/usr/bin:/bin"])
    #expect(read.exitStatus == 65, "\(read)")
    #expect(
      read.standardError.contains("frame 0 of the video does not start with FRAME"), "\(read)")
  }
}
