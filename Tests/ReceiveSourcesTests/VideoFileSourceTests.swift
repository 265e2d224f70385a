import Instants
import LinuxSystem
import MorseCore
import MorseReceiving
import MorseTestSupport
import ReceiveSources
import Testing

/// `--video --show` on a file: each frame at its own time, so that the view can be watched.
/// Only lower bounds are asserted of real time (a loaded machine is slower, never faster).
@Suite struct VideoFileSourceTests {
  /// A YUV4MPEG2 file of `count` dark frames at `rate` (frames a second, as a fraction).
  private func clip(frames count: Int, rate: String = "30:1") throws -> TemporaryDirectory {
    var scene = SyntheticScene()
    scene.width = 16
    scene.height = 12
    let frames = Array(scene.frames(showing: [], lead: .zero, tail: .seconds(1)).prefix(count))
    let directory = try TemporaryDirectory("morsetorch-paced")
    try FileDescriptor.open(directory.path + "/clip.y4m", [.writeOnly, .create])
      .writeWhole(Y4MWriting.bytes(of: frames, rate: rate))
    return directory
  }

  private func readAll(_ source: VideoFileSource) throws -> Int {
    var count = 0
    while try source.next() != nil { count += 1 }
    return count
  }

  @Test func pacedFramesComeNoSoonerThanTheirTimes() throws {
    let directory = try clip(frames: 10)
    let started = MonotonicTime.now()
    let paced = try #require(
      try VideoFileSource(
        path: directory.path + "/clip.y4m", stop: OneShotEvent(), paced: true))
    #expect(try readAll(paced) == 10)
    // The tenth frame is 9/30 s after the first.
    #expect(MonotonicTime.now() - started >= .milliseconds(300))
  }

  @Test func aStopEndsTheWaitForTheNextFrame() throws {
    // Two frames a second apart: the wait for the second is ended by a stop 20 ms into it.
    let directory = try clip(frames: 2, rate: "1:1")
    let stop = OneShotEvent()
    let paced = try #require(
      try VideoFileSource(path: directory.path + "/clip.y4m", stop: stop, paced: true))
    #expect(try paced.next() != nil)
    let started = MonotonicTime.now()
    try Threads.start {
      _ = OneShotEvent().wait(untilMonotonic: started + .milliseconds(20))
      _ = stop.fire()
    }
    #expect(try paced.next() == nil)
    #expect(MonotonicTime.now() - started < .milliseconds(900))
  }
}
