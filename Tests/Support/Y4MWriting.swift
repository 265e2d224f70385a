import MorseCore
import MorseReceiving

/// Frames as a YUV4MPEG2 stream, as ffmpeg's `yuv4mpegpipe` writes one: for the video
/// reader's tests and the synthetic video the CI encodes.
public enum Y4MWriting {
  /// The stream's header line and frame `frames`, 4:2:0 (grey chroma) or `mono`, 8 bits, each
  /// after `frameLine` (`FRAME`, or with frame parameters: `FRAME Ip`).
  public static func bytes(
    of frames: [LightFrame], rate: String = "30:1", colourSpace: String = "420jpeg",
    frameLine: String = "FRAME"
  ) -> [UInt8] {
    guard let first = frames.first else { return [] }
    var bytes = Array("YUV4MPEG2 W\(first.width) H\(first.height) F\(rate) Ip A1:1 C\(colourSpace)\n".utf8)
    let chroma = colourSpace == "mono" ? 0 : 2 * ((first.width + 1) / 2) * ((first.height + 1) / 2)
    for frame in frames {
      bytes += Array((frameLine + "\n").utf8)
      bytes += frame.luma.prefix(frame.width * frame.height)
      bytes += [UInt8](repeating: 128, count: chroma)
    }
    return bytes
  }

  /// A header and one frame of `width` x `height` in 16-bit mono (`mono16`): luma `value`
  /// scaled to 16 bits.
  public static func mono16(width: Int, height: Int, value: UInt8) -> [UInt8] {
    var bytes = Array("YUV4MPEG2 W\(width) H\(height) F25:1 Cmono16\nFRAME\n".utf8)
    for _ in 0..<(width * height) { bytes += [0, value] }
    return bytes
  }
}
