import Instants

/// The stream header of a YUV4MPEG2 (`.y4m`) video, as ffmpeg's `yuv4mpegpipe` writes it:
/// `YUV4MPEG2 W640 H480 F30:1 Ip A1:1 C420jpeg`, then frames each after a `FRAME` line.
public struct Y4MHeader: Sendable, Hashable {
  /// Pixels in a row.
  public let width: Int
  /// Rows.
  public let height: Int
  /// Frames per second, as a fraction (`F30000:1001`).
  public let rateNumerator: Int
  public let rateDenominator: Int
  /// The colour space (`420jpeg`, `mono`, `420p10`...).
  public let colourSpace: String
  /// Bits in a sample: 8 to 16 (two bytes, little-endian, over 8).
  public let bitDepth: Int
  /// Bytes of each frame after the luma plane (the chroma and alpha planes).
  public let otherPlaneBytes: Int

  /// Bytes of a frame's luma plane.
  public var lumaBytes: Int { width * height * (bitDepth > 8 ? 2 : 1) }

  /// The time from one frame to the next.
  public var frameInterval: Duration {
    .nanoseconds(Int64(rateDenominator) * 1_000_000_000 / Int64(rateNumerator))
  }

  /// The time frame `number` (from 0) begins.
  public func time(ofFrame number: Int) -> MonotonicInstant {
    .origin
      + .nanoseconds(Int64(number) * Int64(rateDenominator) * 1_000_000_000 / Int64(rateNumerator))
  }

  /// Reads the header line (without its newline).
  public init(line: [UInt8]) throws(VideoError) {
    let words = line.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
    guard words.first == "YUV4MPEG2" else {
      throw .notY4M(found: Self.shown(line))
    }
    var width: Int?
    var height: Int?
    var rate: (Int, Int)?
    var colourSpace = "420jpeg"
    var tags: Set<Character> = []
    for word in words.dropFirst() {
      let value = word.dropFirst()
      // `X` tags are extensions, which may be many (ffmpeg writes XYSCSS= and XCOLORRANGE=).
      if let tag = word.first, tag != "X", !tags.insert(tag).inserted {
        throw .repeatedHeaderTag(String(tag))
      }
      switch word.first {
      case "W": width = Int(value)
      case "H": height = Int(value)
      case "F":
        let parts = value.split(separator: ":")
        if parts.count == 2, let numerator = Int(parts[0]), let denominator = Int(parts[1]),
          numerator > 0, denominator > 0, numerator <= 1_000_000, denominator <= 1_000_000
        {
          rate = (numerator, denominator)
        } else {
          throw .badHeader("the frame rate \(word) is not F<frames>:<seconds>")
        }
      case "C": colourSpace = String(value)
      default: break
      }
    }
    guard let width, let height, (1...16384).contains(width), (1...16384).contains(height) else {
      throw .badHeader("it needs a width and a height (W640 H480), 1 to 16384")
    }
    guard let rate, Double(rate.0) / Double(rate.1) <= 1000 else {
      throw .badHeader("it needs a frame rate of at most 1000 per second (F30:1)")
    }
    self.width = width
    self.height = height
    (rateNumerator, rateDenominator) = rate
    self.colourSpace = colourSpace
    (bitDepth, otherPlaneBytes) = try Self.layout(colourSpace, width: width, height: height)
  }

  /// The bit depth and the bytes after the luma plane in `space`.
  private static func layout(_ space: String, width: Int, height: Int) throws(VideoError)
    -> (Int, Int)
  {
    // `420p10`, `mono16`: the depth follows a `p` (or `mono`).
    var name = Substring(space)
    var depth = 8
    if let p = space.lastIndex(where: { $0 == "p" || $0 == "o" }),
      let bits = Int(space[space.index(after: p)...])
    {
      guard (8...16).contains(bits) else { throw .unsupportedColourSpace(space) }
      depth = bits
      name = space[...p]
      if name.hasSuffix("p") { name = name.dropLast() }
    }
    let sample = depth > 8 ? 2 : 1
    let (halfWidth, halfHeight) = ((width + 1) / 2, (height + 1) / 2)
    let chroma: Int
    switch name {
    case "420", "420jpeg", "420paldv", "420mpeg2": chroma = 2 * halfWidth * halfHeight
    case "422": chroma = 2 * halfWidth * height
    case "444": chroma = 2 * width * height
    case "444alpha": chroma = 3 * width * height
    case "411": chroma = 2 * ((width + 3) / 4) * height
    case "mono": chroma = 0
    default: throw .unsupportedColourSpace(space)
    }
    return (depth, chroma * sample)
  }

  /// Up to 24 bytes of `bytes`, printable.
  static func shown(_ bytes: some Collection<UInt8>) -> String {
    let text = String(decoding: bytes.prefix(24), as: UTF8.self)
    return "\"" + String(text.map { $0.isASCII && !$0.isNewline && ($0 >= " ") ? $0 : "?" }) + "\""
  }
}
