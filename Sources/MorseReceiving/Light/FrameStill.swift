/// A frame made small, grey: where a light was found, for a picture of the reading.
public struct FrameStill: Sendable, Hashable {
  /// Cells in a row.
  public let width: Int
  /// Rows.
  public let height: Int
  /// Each cell's mean luma, 0 dark to 255 bright, row by row from the top.
  public let luma: [UInt8]
  /// The frame's pixels to a cell, across and down.
  public let scale: Int

  /// `frame` in cells of `scale` by `scale` pixels, `scale` the least that makes it at most
  /// `widest` cells across (the frame's own pixels when it is that narrow).
  public init(_ frame: LightFrame, widest: Int = 64) {
    let scale = max((frame.width + widest - 1) / max(widest, 1), 1)
    let (width, height) = (frame.width / scale, frame.height / scale)
    var luma = [UInt8](repeating: 0, count: width * height)
    for row in 0..<height {
      for column in 0..<width {
        var total = 0
        for y in (row * scale)..<(row * scale + scale) {
          let start = y * frame.width + column * scale
          for index in start..<(start + scale) { total += Int(frame.luma[index]) }
        }
        luma[row * width + column] = UInt8(total / (scale * scale))
      }
    }
    self.width = width
    self.height = height
    self.luma = luma
    self.scale = scale
  }
}
