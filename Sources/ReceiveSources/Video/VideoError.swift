import LinuxSystem

/// Why a video (a YUV4MPEG2 stream, or a file ffmpeg decodes into one) cannot be read.
public enum VideoError: Error, Hashable, CustomStringConvertible {
  /// How to make a stream this reader takes of any recording: 8-bit 4:2:0 (ffmpeg writes no
  /// YUV4MPEG2 of a 10-bit phone video unless told a format).
  public static let conversion = "ffmpeg -i FILE -pix_fmt yuv420p -f yuv4mpegpipe -"

  /// The stream does not start as YUV4MPEG2 does.
  case notY4M(found: String)
  /// A header parameter is missing or wrong.
  case badHeader(String)
  /// A colour space whose frames this reader cannot lay out.
  case unsupportedColourSpace(String)
  /// A header tag (`W`, `H`, `F`...) that is given more than once.
  case repeatedHeaderTag(String)
  /// A frame's header line is not `FRAME...`.
  case badFrameHeader(number: Int, found: String)
  /// A frame's `FRAME` line (with its parameters) goes on past `limit` bytes.
  case frameLineTooLong(number: Int, limit: Int)
  /// The stream ended inside a frame.
  case truncatedFrame(number: Int)
  /// `read(2)` failed.
  case readFailed(Errno)
  /// The file at `path` is no YUV4MPEG2 stream, and no ffmpeg is installed to decode it.
  case decoderMissing(path: String)
  /// ffmpeg could not decode the file: `reason`, in its words.
  case decoderFailed(program: String, reason: String)

  /// What is wrong, for a person.
  public var description: String {
    switch self {
    case .notY4M(let found) where found.isEmpty:
      "the video is empty (no YUV4MPEG2 header); convert a recording with "
        + Self.conversion
    case .notY4M(let found):
      "the video is not a YUV4MPEG2 stream (it starts with \(found)); convert it with "
        + Self.conversion
    case .badHeader(let reason): "the YUV4MPEG2 header is wrong: \(reason)"
    case .unsupportedColourSpace(let space):
      "the YUV4MPEG2 colour space \(shown: space) is not supported (4:2:0, 4:2:2, 4:4:4, 4:1:1, "
        + "mono, 8 to 16 bits are); convert it with ffmpeg ... -pix_fmt yuv420p"
    case .repeatedHeaderTag(let tag):
      "the YUV4MPEG2 header is wrong: its \(shown: tag) tag is given twice"
    case .frameLineTooLong(let number, let limit):
      "the FRAME line of frame \(number) of the video is longer than \(limit) bytes"
    case .badFrameHeader(let number, let found):
      "frame \(number) of the video does not start with FRAME (found \(found))"
    case .truncatedFrame(let number): "the video ends inside frame \(number)"
    case .readFailed(let errno): "cannot read the video: \(errno)"
    case .decoderMissing(let path):
      "\(shown: path) is not a YUV4MPEG2 stream, and \(VideoDecoder.program), which decodes "
        + "any other video, is not installed (on PATH): install it (`sudo apt install ffmpeg`)"
    case .decoderFailed(let program, let reason):
      "\(program) cannot decode the video: \(ShownText.escaped(reason))"
    }
  }
}
