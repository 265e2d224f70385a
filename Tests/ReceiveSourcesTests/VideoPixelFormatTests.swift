import ReceiveSources
import Testing

/// A 3x2 picture whose luma is 10, 20, 30 / 40, 50, 60, laid out as `format` with rows
/// `row` bytes apart; chroma bytes are 255 so a misplaced read shows.
private func bytes(_ format: VideoPixelFormat, row: Int) -> [UInt8] {
  let luma: [[UInt8]] = [[10, 20, 30], [40, 50, 60]]
  var bytes = [UInt8](repeating: 255, count: row * 2 + 64)
  for y in 0..<2 {
    for x in 0..<3 {
      switch format {
      case .grey, .nv12, .nv21, .yuv420, .yvu420: bytes[y * row + x] = luma[y][x]
      case .yuyv, .yvyu: bytes[y * row + 2 * x] = luma[y][x]
      case .uyvy, .vyuy: bytes[y * row + 2 * x + 1] = luma[y][x]
      }
    }
  }
  return bytes
}

@Suite struct VideoPixelFormatTests {
  @Test(arguments: VideoPixelFormat.allCases)
  func theLumaIsReadFromItsPlaceInEachRow(format: VideoPixelFormat) {
    let row = 16  // wider than the picture: the driver's padding is skipped
    let picture = bytes(format, row: row)
    var luma: [UInt8] = []
    let read = picture.withUnsafeBytes {
      format.luma(of: $0, width: 3, height: 2, bytesPerLine: row, into: &luma)
    }
    #expect(read)
    #expect(luma == [10, 20, 30, 40, 50, 60])
  }

  @Test func rowsPackedTightWhenTheDriverGivesNoRowLength() {
    let picture = bytes(.yuyv, row: 6)
    var luma: [UInt8] = []
    let read = picture.withUnsafeBytes {
      VideoPixelFormat.yuyv.luma(of: $0, width: 3, height: 2, bytesPerLine: 0, into: &luma)
    }
    #expect(read && luma == [10, 20, 30, 40, 50, 60])
  }

  @Test func aBufferTooShortForThePictureIsRefused() {
    let picture = [UInt8](repeating: 0, count: 11)
    var luma: [UInt8] = []
    let read = picture.withUnsafeBytes {
      VideoPixelFormat.yuyv.luma(of: $0, width: 3, height: 2, bytesPerLine: 6, into: &luma)
    }
    #expect(!read)
  }

  @Test func fourccsAreTheirFourCharactersFirstInTheLowestByte() {
    #expect(VideoPixelFormat.yuyv.fourcc == 0x5659_5559)
    #expect(VideoPixelFormat(fourcc: 0x3231_564E) == .nv12)
    #expect(VideoPixelFormat(fourcc: 0x4750_4A4D) == nil)  // MJPG
    #expect(VideoPixelFormat.name(ofFourCC: 0x4750_4A4D) == "MJPG")
    #expect(VideoPixelFormat.name(ofFourCC: 0x2020_3859) == "Y8")
    #expect(VideoPixelFormat.name(ofFourCC: 0x0000_0001) == "0x1")
  }
}
