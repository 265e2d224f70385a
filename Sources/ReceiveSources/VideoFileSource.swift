import Instants
import LinuxSystem
import MorseReceiving

/// `--video FILE|-`: a video's frames until it ends or `stop` fires.
///
/// A YUV4MPEG2 stream (a file, a FIFO, standard input) is read as it is, each frame timed by
/// its number and the header's frame rate. Any other file is decoded by ffmpeg, as a child
/// process (`VideoDecoder`), each frame timed by its own timestamp. Frames come as fast as
/// they can, or, `paced`, each at its time from the first (a file watched with `--show`).
public final class VideoFileSource: ReceiveSource {
  private let video: Y4MReader
  private let decoder: VideoDecoder?
  private let stop: OneShotEvent
  private let isPaced: Bool
  private var frameNumber = 0
  /// When the first frame was given, for the pace.
  private var start: MonotonicInstant?

  /// Opens `path` (`-`: standard input) and reads its header, starting ffmpeg (found on
  /// `environment`'s `PATH`) for a file that is no YUV4MPEG2 stream; nil if `stop` fired
  /// first.
  public init?(
    path: String, stop: OneShotEvent, paced: Bool = false, environment: [String: String] = [:]
  ) throws {
    self.stop = stop
    isPaced = paced
    let input: FileDescriptor
    if let program = try Self.decoderProgram(for: path, environment: environment) {
      let frames: Pipe
      do throws(Errno) {
        frames = try Pipe()
      } catch {
        throw VideoError.decoderFailed(program: program, reason: "cannot make its pipe: \(error)")
      }
      decoder = try VideoDecoder(
        path: path, program: program, environment: environment, output: frames.writeEnd)
      input = frames.closingWriteEnd()
    } else {
      decoder = nil
      input = try Self.openInput(path)
    }
    do {
      guard let video = try Y4MReader(file: input, stop: stop) else { return nil }
      self.video = video
    } catch {
      // ffmpeg wrote no stream: what it said is the error.
      throw self.decoder?.failure() ?? error
    }
  }

  /// The ffmpeg to decode `path` with, when it is a regular file that does not start as a
  /// YUV4MPEG2 stream does; nil for one that does, or for anything else (standard input, a
  /// FIFO), which is read as YUV4MPEG2.
  private static func decoderProgram(for path: String, environment: [String: String])
    throws(VideoError) -> String?
  {
    guard path != "-", let status = try? FileSystem.status(path), status.isRegularFile,
      let file = try? FileDescriptor.open(path, .readOnly)
    else { return nil }
    var start = [UInt8](repeating: 0, count: 10)
    let count = (try? start.withUnsafeMutableBytes { try file.read(into: $0) }) ?? 0
    try? file.close()
    // An empty file is no video of any kind: the YUV4MPEG2 reader says so.
    guard count > 0, !start[..<count].elementsEqual("YUV4MPEG2 ".utf8.prefix(count)) else {
      return nil
    }
    guard let program = VideoDecoder.find(onPath: environment["PATH"] ?? "/usr/bin:/bin") else {
      throw .decoderMissing(path: path)
    }
    return program
  }

  /// The header's picture.
  public var kind: ReceiveSourceKind {
    let header = video.header
    return .frames(
      ReceivedPicture(
        width: header.width, height: header.height, frameInterval: header.frameInterval,
        origin: .video))
  }

  /// The next frame, at its time when paced; nil at the end or once stopped.
  public func next() throws -> MorseReading.Input? {
    let next: LightFrame?
    do {
      next = try video.next()
    } catch {
      // A stream that broke off because ffmpeg failed: its words, not the broken frame's.
      throw decoder?.failure() ?? error
    }
    guard var frame = next else {
      if !stop.isFired, let failure = decoder?.failure() { throw failure }
      return nil
    }
    defer { frameNumber += 1 }
    if let time = decoder?.time(ofFrame: frameNumber),
      let timed = LightFrame(
        width: frame.width, height: frame.height, luma: frame.luma, time: .origin + time)
    {
      frame = timed
    }
    if isPaced {
      let start = self.start ?? MonotonicTime.now()
      self.start = start
      if !stop.wait(untilMonotonic: start + (frame.time - .origin)) { return nil }
    }
    return .frame(frame)
  }
}
