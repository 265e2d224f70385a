import Testing

@testable import ReceiveSources

/// The lines of ffmpeg's `showinfo` (`-loglevel level+info`) that time each frame.
@Suite struct VideoDecoderTests {
  private let frame =
    "[Parsed_showinfo_0 @ 0x55] [info] n: 123 pts: 629760 pts_time:41.0000 pos: 48 fmt:gray"

  @Test func aFrameIsTimedByItsPtsInTheTimeBaseExactly() throws {
    let base = try #require(
      VideoDecoder.timeBase(
        "[Parsed_showinfo_0 @ 0x55] [info] config in time_base: 1/15360, frame_rate: 30/1"))
    #expect(base.numerator == 1 && base.denominator == 15_360)
    // 629760 / 15360 = 41 s exactly, whatever pts_time says in its six figures.
    #expect(VideoDecoder.frameTime(frame, timeBase: base) == .seconds(41))
    let rounded = frame.replacingOccurrences(of: "41.0000", with: "41.0001")
    #expect(VideoDecoder.frameTime(rounded, timeBase: base) == .seconds(41))
  }

  @Test func withoutATimeBaseItsPtsTimeIsTaken() {
    let late = frame.replacingOccurrences(of: "pts: 629760", with: "pts: NOPTS")
    #expect(VideoDecoder.frameTime(late, timeBase: (1, 15_360)) == .seconds(41))
    #expect(VideoDecoder.frameTime(frame, timeBase: nil) == .seconds(41))
  }

  @Test(arguments: [
    "[Parsed_showinfo_0 @ 0x55] [info] config out time_base: 0/0, frame_rate: 0/0",
    "[info]   Stream #0:0 -> #0:0 (h264 (native) -> wrapped_avframe (native))",
    "[Parsed_showinfo_0 @ 0x55] [info] color_range:unknown color_space:unknown",
  ])
  func otherLinesTimeNoFrame(line: String) {
    #expect(VideoDecoder.frameTime(line, timeBase: (1, 15_360)) == nil)
    #expect(VideoDecoder.timeBase(line) == nil)
  }
}
