import LinuxSystem
import MorseReceiving

/// `--video FILE|-`: a YUV4MPEG2 stream's frames, as fast as they come, timed by its frame
/// rate, until it ends or `stop` fires.
public final class VideoFileSource: ReceiveSource {
  private let video: Y4MReader

  /// Opens `path` (`-`: standard input) and reads its header; nil if `stop` fired first.
  public init?(path: String, stop: OneShotEvent) throws {
    guard let video = try Y4MReader(file: try Self.openInput(path), stop: stop) else {
      return nil
    }
    self.video = video
  }

  /// The header's picture.
  public var kind: ReceiveSourceKind {
    let header = video.header
    return .frames(
      ReceivedPicture(
        width: header.width, height: header.height, frameInterval: header.frameInterval,
        origin: .video))
  }

  /// The next frame.
  public func next() throws -> MorseReading.Input? {
    try video.next().map { .frame($0) }
  }
}
