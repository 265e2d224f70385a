import Instants
import LinuxSystem
import MorseCore
import MorseReceiving
import MorseTestSupport
import ReceiveSources
import Testing

/// `bytes` in a new temporary file, opened for reading.
private let files = Counter()

private func file(holding bytes: [UInt8]) throws -> FileDescriptor {
  let path = "/tmp/morsetorch-y4m-\(CurrentProcess.id)-\(files.next())"
  try FileDescriptor.open(path, [.writeOnly, .create, .truncate]).writeWhole(bytes)
  let reader = try FileDescriptor.open(path, .readOnly)
  try FileSystem.unlink(path)
  return reader
}

private func frames(_ bytes: [UInt8]) throws -> (Y4MHeader, [LightFrame]) {
  let reader = try #require(try Y4MReader(file: try file(holding: bytes), stop: OneShotEvent()))
  var frames: [LightFrame] = []
  while let frame = try reader.next() { frames.append(frame) }
  return (reader.header, frames)
}

private func picture(_ number: Int) -> LightFrame {
  LightFrame(
    width: 5, height: 3, luma: (0..<15).map { UInt8($0 * 10 + number) },
    time: .origin)!
}

@Suite struct Y4MReaderTests {
  @Test(arguments: ["420jpeg", "mono"])
  func framesKeepTheirLumaAndAreTimedByTheFrameRate(colourSpace: String) throws {
    let bytes = Y4MWriting.bytes(
      of: [picture(1), picture(2), picture(3)], rate: "30000:1001", colourSpace: colourSpace)
    let (header, read) = try frames(bytes)
    #expect(header.width == 5 && header.height == 3)
    #expect(read.map(\.luma) == [picture(1), picture(2), picture(3)].map(\.luma))
    #expect(
      read.map(\.time.sinceOrigin) == [.zero, .nanoseconds(33_366_666), .nanoseconds(66_733_333)])
  }

  @Test func sixteenBitSamplesAreBroughtToEightBits() throws {
    let (header, read) = try frames(Y4MWriting.mono16(width: 4, height: 2, value: 200))
    #expect(header.bitDepth == 16)
    #expect(read.first?.luma == [UInt8](repeating: 200, count: 8))
  }

  @Test(arguments: [
    ("YUV4MPEG2 W640 H480 F30:1 C420jpeg", 8, 640 * 480 / 2),
    ("YUV4MPEG2 W641 H481 F30:1", 8, 2 * 321 * 241),
    ("YUV4MPEG2 W640 H480 F25:1 C422", 8, 640 * 480),
    ("YUV4MPEG2 W640 H480 F25:1 C444", 8, 2 * 640 * 480),
    ("YUV4MPEG2 W640 H480 F25:1 C420p10 XYSCSS=420P10", 10, 640 * 480),
    ("YUV4MPEG2 W640 H480 F25:1 Cmono", 8, 0),
    ("YUV4MPEG2 W640 H480 F25:1 C444alpha", 8, 3 * 640 * 480),
  ])
  func headersLayOutTheirPlanes(line: String, depth: Int, otherBytes: Int) throws {
    let header = try Y4MHeader(line: Array(line.utf8))
    #expect(header.bitDepth == depth)
    #expect(header.otherPlaneBytes == otherBytes)
  }

  @Test(arguments: [
    ("RIFF....WAVE", "not a YUV4MPEG2 stream"),
    ("YUV4MPEG2 W640 F30:1", "width and a height"),
    ("YUV4MPEG2 W640 H480", "frame rate"),
    ("YUV4MPEG2 W640 H480 F30", "F<frames>:<seconds>"),
    ("YUV4MPEG2 W640 H480 F30:1 Cxyz", "colour space xyz"),
  ])
  func badHeadersSayWhatIsWrong(line: String, expected: String) throws {
    do {
      _ = try frames(Array((line + "\n").utf8))
      Issue.record("no error")
    } catch let error as VideoError {
      #expect(error.description.contains(expected))
    }
  }

  @Test func aStreamThatEndsInsideAFrameSaysWhichFrame() throws {
    let bytes = Y4MWriting.bytes(of: [picture(1), picture(2)])
    #expect(throws: VideoError.truncatedFrame(number: 1)) {
      _ = try frames(Array(bytes.dropLast(3)))
    }
  }

  @Test func aFrameWithoutItsHeaderLineIsAnError() throws {
    var bytes = Y4MWriting.bytes(of: [picture(1)])
    bytes += Array("FRAMX\n".utf8)
    #expect(throws: VideoError.badFrameHeader(number: 1, found: "\"FRAMX\"")) {
      _ = try frames(bytes)
    }
  }

  @Test(arguments: ["FRAME Ixyz", "FRAME Ip XCOLORRANGE=FULL", "FRAME "])
  func frameParametersAreReadPast(frameLine: String) throws {
    let bytes = Y4MWriting.bytes(of: [picture(1), picture(2)], frameLine: frameLine)
    let (_, read) = try frames(bytes)
    #expect(read.map(\.luma) == [picture(1), picture(2)].map(\.luma))
  }

  @Test func aFrameLineLongerThanItsLimitIsRefused() throws {
    var bytes = Y4MWriting.bytes(of: [picture(1)])
    bytes += Array(("FRAME I" + String(repeating: "x", count: 5000) + "\n").utf8)
    #expect(throws: VideoError.frameLineTooLong(number: 1, limit: 4096)) {
      _ = try frames(bytes)
    }
    #expect(
      VideoError.frameLineTooLong(number: 1, limit: 4096).description
        == "the FRAME line of frame 1 of the video is longer than 4096 bytes")
  }

  @Test func aWordThatOnlyBeginsWithFrameIsNoFrameLine() throws {
    var bytes = Y4MWriting.bytes(of: [picture(1)])
    bytes += Array("FRAMES\n".utf8)
    #expect(throws: VideoError.badFrameHeader(number: 1, found: "\"FRAMES\"")) {
      _ = try frames(bytes)
    }
  }

  @Test(arguments: [
    ("YUV4MPEG2 W640 H480 F30:1 W320", "W"),
    ("YUV4MPEG2 W640 H480 H480 F30:1", "H"),
    ("YUV4MPEG2 W640 H480 F30:1 F25:1", "F"),
    ("YUV4MPEG2 W640 H480 F30:1 C420jpeg Cmono", "C"),
    ("YUV4MPEG2 W640 H480 F30:1 Ip It", "I"),
  ])
  func aRepeatedTagIsRefusedByName(line: String, tag: String) throws {
    #expect(throws: VideoError.repeatedHeaderTag(tag)) {
      _ = try Y4MHeader(line: Array(line.utf8))
    }
    #expect(
      VideoError.repeatedHeaderTag(tag).description
        == "the YUV4MPEG2 header is wrong: its \(tag) tag is given twice")
  }

  @Test func extensionTagsMayRepeat() throws {
    let line = "YUV4MPEG2 W640 H480 F30:1 C420jpeg XYSCSS=420JPEG XCOLORRANGE=FULL"
    let header = try Y4MHeader(line: Array(line.utf8))
    #expect(header.width == 640)
  }

  @Test func aFiredStopEndsTheWaitForInput() throws {
    let pipe = try Pipe()
    try pipe.writeEnd.writeWhole(Array("YUV4MPEG2 W2 H2 F30:1 Cmono\n".utf8))
    let stop = OneShotEvent()
    let reader = try #require(try Y4MReader(file: pipe.readEnd, stop: stop))
    stop.fire()
    #expect(try reader.next() == nil)
  }

  @Test func aStopBeforeTheHeaderOrInsideAFrameIsNoError() throws {
    let silent = try Pipe()
    let stop = OneShotEvent()
    stop.fire()
    #expect(try Y4MReader(file: silent.readEnd, stop: stop) == nil)
    let cut = try Pipe()
    try cut.writeEnd.writeWhole(Array("YUV4MPEG2 W2 H2 F30:1 Cmono\nFRAME\n\u{1}".utf8))
    let later = OneShotEvent()
    let reader = try #require(try Y4MReader(file: cut.readEnd, stop: later))
    // The frame's first byte is in, the other three never come: the stop ends the wait.
    later.fire()
    #expect(try reader.next() == nil)
  }
}
