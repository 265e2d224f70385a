/// The uncompressed pixel formats a camera is read in: where each pixel's luma (Y) lies.
public enum VideoPixelFormat: String, CaseIterable, Sendable {
  /// 8-bit grey, one byte a pixel.
  case grey = "GREY"
  /// 4:2:0 with the luma plane first, then interleaved chroma (CbCr or CrCb).
  case nv12 = "NV12"
  case nv21 = "NV21"
  /// 4:2:0 with three planes, luma first (I420 and its Cr-first twin).
  case yuv420 = "YU12"
  case yvu420 = "YV12"
  /// 4:2:2 packed, two bytes a pixel: luma first (YUYV, YVYU) or second (UYVY, VYUY).
  case yuyv = "YUYV"
  case yvyu = "YVYU"
  case uyvy = "UYVY"
  case vyuy = "VYUY"

  /// The formats in the order one is chosen: the cheapest luma first (a plane of its own).
  public static let preferred: [VideoPixelFormat] = [
    .grey, .nv12, .nv21, .yuv420, .yvu420, .yuyv, .yvyu, .uyvy, .vyuy,
  ]

  /// Its V4L2 fourcc: the four characters, the first in the lowest byte.
  public var fourcc: UInt32 { Self.fourcc(rawValue) }

  /// The format of V4L2 fourcc `code`, if it is one of these.
  public init?(fourcc code: UInt32) {
    guard let format = Self.allCases.first(where: { $0.fourcc == code }) else { return nil }
    self = format
  }

  /// The fourcc of four ASCII characters.
  static func fourcc(_ name: String) -> UInt32 {
    name.utf8.prefix(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
  }

  /// A fourcc as its four characters (`MJPG`), for messages; `0x…` if they are not printable.
  public static func name(ofFourCC code: UInt32) -> String {
    let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> ($0 * 8)) }
    let text = bytes.allSatisfy { (0x20...0x7e).contains($0) }
    if text {
      return String(decoding: bytes, as: UTF8.self).trimmingTrailingSpaces()
    }
    return "0x" + String(code, radix: 16)
  }

  /// Bytes between one pixel's luma and the next in a row, and the offset of the first.
  private var lumaStep: (stride: Int, offset: Int) {
    switch self {
    case .grey, .nv12, .nv21, .yuv420, .yvu420: (1, 0)
    case .yuyv, .yvyu: (2, 0)
    case .uyvy, .vyuy: (2, 1)
    }
  }

  /// The luma of a `width` by `height` picture in `bytes`, rows `bytesPerLine` apart (0:
  /// packed tight); nil if `bytes` is too short for it.
  public func luma(
    of bytes: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int,
    into luma: inout [UInt8]
  ) -> Bool {
    let (stride, offset) = lumaStep
    let row = max(bytesPerLine, width * stride)
    guard width > 0, height > 0, bytes.count >= row * (height - 1) + width * stride else {
      return false
    }
    if luma.count != width * height { luma = [UInt8](repeating: 0, count: width * height) }
    luma.withUnsafeMutableBufferPointer { luma in
      for y in 0..<height {
        let from = y * row + offset
        let to = y * width
        if stride == 1 {
          for x in 0..<width { luma[to + x] = bytes[from + x] }
        } else {
          for x in 0..<width { luma[to + x] = bytes[from + x * stride] }
        }
      }
    }
    return true
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
