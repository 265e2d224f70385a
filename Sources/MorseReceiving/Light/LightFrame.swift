import Instants

/// One picture's brightness and when it was taken: what a camera or a video gives the light
/// receiver.
public struct LightFrame: Sendable {
  /// Pixels in a row.
  public let width: Int
  /// Rows.
  public let height: Int
  /// The luma (Y) of each pixel, 0 dark to 255 bright, row by row from the top: `width`
  /// bytes a row.
  public let luma: [UInt8]
  /// When its exposure began, from any origin (a kernel timestamp, a frame's number over
  /// the frame rate).
  public let time: MonotonicInstant

  /// A frame of `width` by `height` pixels; nil if `luma` holds fewer than that.
  public init?(width: Int, height: Int, luma: [UInt8], time: MonotonicInstant) {
    guard width > 0, height > 0, luma.count >= width * height else { return nil }
    self.width = width
    self.height = height
    self.luma = luma
    self.time = time
  }
}

/// A rectangle of a frame, in pixels from its top left corner: where the light is.
public struct LightRegion: Sendable, Hashable, CustomStringConvertible {
  /// The left column.
  public let x: Int
  /// The top row.
  public let y: Int
  /// Columns.
  public let width: Int
  /// Rows.
  public let height: Int

  /// The rectangle at `x`,`y` of `width` by `height` pixels (both at least 1).
  public init?(x: Int, y: Int, width: Int, height: Int) {
    guard x >= 0, y >= 0, width > 0, height > 0 else { return nil }
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// `X,Y (WxH)`.
  public var description: String { "\(x),\(y) (\(width)x\(height))" }

  /// Whether it lies inside a frame of `width` by `height` pixels.
  public func fits(width frameWidth: Int, height frameHeight: Int) -> Bool {
    x + width <= frameWidth && y + height <= frameHeight
  }

  /// Whether the two share a pixel.
  func overlaps(_ other: LightRegion) -> Bool {
    x < other.x + other.width && other.x < x + width && y < other.y + other.height
      && other.y < y + height
  }

  /// The mean luma of its pixels in `frame` (which it fits).
  func meanLuma(in frame: LightFrame) -> Double {
    var total = 0
    frame.luma.withUnsafeBufferPointer { luma in
      for row in y..<(y + height) {
        let start = row * frame.width + x
        for index in start..<(start + width) { total += Int(luma[index]) }
      }
    }
    return Double(total) / Double(width * height)
  }
}
