import Instants
import MorseReceiving
import Synchronization
import Testing

@testable import MorsetorchTool

/// A frame of `width` by `height` whose pixel at x,y is `luma(x, y)`, at `time` from zero.
private func frame(
  width: Int, height: Int, at time: Duration = .zero, _ luma: (Int, Int) -> UInt8
) throws -> LightFrame {
  let pixels = (0..<height).flatMap { y in (0..<width).map { x in luma(x, y) } }
  return try #require(LightFrame(width: width, height: height, luma: pixels, time: .origin + time))
}

/// `text` without its escape sequences (CSI ... m): what a terminal shows of it.
private func visible(_ text: String) -> String {
  var result = ""
  var isInEscape = false
  for character in text {
    if character == "\u{1B}" {
      isInEscape = true
    } else if isInEscape {
      if character == "m" { isInEscape = false }
    } else {
      result.append(character)
    }
  }
  return result
}

@Suite("receive --show: the view")
struct ReceiveViewTests {
  /// A 4x4 frame, dark at the top and bright at the bottom, as the view's still.
  private func state() throws -> ReceiveViewState {
    var state = ReceiveViewState()
    state.still = FrameStill(try frame(width: 4, height: 4) { _, y in y < 2 ? 0 : 250 })
    return state
  }

  @Test func plainCellsAreTheDensityRampOfTheirTwoPixels() throws {
    var state = try state()
    state.still = FrameStill(try frame(width: 4, height: 4) { _, y in [0, 100, 200, 255][y] })
    let lines = ReceiveViewPicture.picture(state, columns: 80, rows: 24, palette: .plain)
    // Row 0: 0 over 100 (50, the second of 10 steps: "."); row 1: 200 over 255 (227: "%").
    #expect(lines == ["....", "%%%%"])
  }

  @Test func colourCellsAreHalfBlocksWithTheTopPixelInFrontAndTheBottomBehind() throws {
    var state = try state()
    state.still = FrameStill(try frame(width: 2, height: 2) { _, y in y == 0 ? 10 : 200 })
    let trueColor = ReceiveViewPicture.picture(state, columns: 80, rows: 24, palette: .trueColor)
    // One colour change for the row, then the cells, then the colours reset.
    #expect(trueColor == ["\u{1B}[38;2;10;10;10;48;2;200;200;200m▀▀\u{1B}[0m"])
    let grey256 = ReceiveViewPicture.picture(state, columns: 80, rows: 24, palette: .grey256)
    #expect(grey256 == ["\u{1B}[38;5;232;48;5;251m▀▀\u{1B}[0m"])
    #expect(ReceiveViewPicture.greyIndex(0) == 16 && ReceiveViewPicture.greyIndex(255) == 231)
  }

  @Test func theBoxSurroundsTheRegionsCellsScaledToThePicture() throws {
    var state = ReceiveViewState()
    // 64x32 pixels, no bigger than the room: a picture pixel is a frame pixel.
    state.still = FrameStill(try frame(width: 64, height: 32) { _, _ in 0 })
    state.region = LightRegion(x: 20, y: 8, width: 4, height: 4)
    let lines = ReceiveViewPicture.picture(state, columns: 80, rows: 40, palette: .plain)
    #expect(lines.count == 16)
    // Columns 20-23 and rows 8-11 (cells 4-5): the outline one cell outside them.
    let rows = lines.map { Array($0) }
    #expect(rows[3][19] == "+" && rows[3][24] == "+" && rows[6][19] == "+" && rows[6][24] == "+")
    #expect(rows[3][20...23] == ["-", "-", "-", "-"] && rows[4][19] == "|" && rows[5][24] == "|")
    #expect(rows[4][20] == " " && rows[2][19] == " " && rows[7][24] == " ")
    // Colour: the same place in box-drawing characters, yellow.
    let colour = ReceiveViewPicture.picture(state, columns: 80, rows: 40, palette: .trueColor)
      .map { Array(visible($0)) }
    #expect(colour[3][19] == "┌" && colour[6][24] == "┘" && colour[4][19] == "│")
    #expect(colour[3][20] == "─" && colour[4][20] == "▀")
    #expect(
      ReceiveViewPicture.picture(state, columns: 80, rows: 40, palette: .trueColor)[3]
        .contains("\u{1B}[38;2;255;210;0;48;2;0;0;0m┌"))
  }

  @Test func aBoxAtThePicturesEdgeIsClippedToIt() {
    let box = Box(LightRegion(x: 0, y: 0, width: 8, height: 8)!, scale: 2, width: 10, height: 6)
    #expect(box.left == 0 && box.right == 4 && box.top == 0 && box.bottom == 2)
    #expect(box.character(column: 0, row: 0) == .topLeft)
    #expect(box.character(column: 4, row: 2) == .bottomRight)
    #expect(box.character(column: 2, row: 1) == nil)
  }

  @Test(arguments: [(200, 60), (80, 24), (40, 12), (12, 6), (5, 3), (30, 2)])
  func theViewFitsTheTerminal(columns: Int, rows: Int) throws {
    var state = ReceiveViewState()
    state.still = FrameStill(try frame(width: 640, height: 480) { x, y in UInt8((x + y) % 256) })
    state.region = LightRegion(x: 600, y: 440, width: 40, height: 40)
    state.text = String(repeating: "SOS ", count: 50) + "END"
    state.level = (180, 120)
    state.levels = 40...200
    for palette in [ReceiveViewPalette.plain, .grey256, .trueColor] {
      let lines = ReceiveViewPicture.text(state, columns: columns, rows: rows, palette: palette)
        .split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.count <= rows - 1, "\(palette) \(columns)x\(rows)")
      #expect(lines.allSatisfy { visible(String($0)).count <= columns - 1 }, "\(palette)")
      let end = columns > 8 ? "SOS END" : "END"
      #expect(lines.last.map { visible(String($0)).hasSuffix(end) } == true, "\(lines)")
    }
  }

  @Test func theLevelBarMarksTheThresholdAndTheStatusSaysTheSpeedAndPlace() {
    var state = ReceiveViewState()
    #expect(ReceiveViewPicture.status(state, columns: 80) == "looking for the light")
    state.level = (150, 100)
    state.levels = 0...200
    state.wordsPerMinute = 11.6
    state.region = LightRegion(x: 96, y: 32, width: 16, height: 16)
    #expect(
      ReceiveViewPicture.status(state, columns: 80)
        == "[##########|#####....]  12 WPM  light at 96,32 (16x16)")
  }

  @Test func colourIsChosenFromTheEnvironmentAndNoColorWins() {
    let chosen = ReceiveViewPalette.chosen
    #expect(chosen(nil, "xterm-256color", "truecolor") == .trueColor)
    #expect(chosen(nil, "xterm-256color", nil) == .grey256)
    #expect(chosen(nil, "xterm", "24bit") == .trueColor)
    #expect(chosen(nil, "xterm", nil) == .plain)
    #expect(chosen("1", "xterm-256color", "truecolor") == .plain)
    #expect(chosen("", "xterm-256color", nil) == .grey256)
    #expect(chosen(nil, "dumb", "truecolor") == .plain)
  }

  @Test func itRedrawsEveryFifthOfASecondOfTheFramesOwnTime() throws {
    let shown = Mutex<[String]>([])
    let view = ReceiveView(
      palette: .plain, size: { (40, 20) },
      show: { frame in shown.withLock { $0.append(frame(.origin)) } }, clear: {})
    view.add(.found(LightRegion(x: 0, y: 0, width: 2, height: 2)!, after: .zero))
    view.add(.output(.text("E")))
    for milliseconds in [0, 100, 199, 200, 350, 400, 1000] {
      view.see(try frame(width: 8, height: 8, at: .milliseconds(milliseconds)) { _, _ in 0 })
    }
    let frames = shown.withLock { $0 }
    // At 0, 200, 400 and 1000 ms.
    #expect(frames.count == 4)
    #expect(frames.last?.hasSuffix("light at 0,0 (2x2)\nread: E") == true, "\(frames)")
  }

  @Test func whatTheReadingHoldsBackIsShownInBracketsAfterWhatItGave() throws {
    let shown = Mutex<[String]>([])
    let view = ReceiveView(
      palette: .plain, size: { (40, 20) },
      show: { frame in shown.withLock { $0.append(frame(.origin)) } }, clear: {})
    view.add(.output(.text("C")))
    view.add(.output(.text("Q")))
    view.see(try frame(width: 8, height: 8, at: .zero) { _, _ in 0 }, held: " DE\t")
    let frames = shown.withLock { $0 }
    // Escaped as the text given is: a control character held is no command to the terminal.
    #expect(frames.last?.hasSuffix("\nread: CQ( DE\\t)") == true, "\(frames)")
    #expect(ReceiveViewPicture.said("CQ", held: "", columns: 40) == "read: CQ")
    #expect(ReceiveViewPicture.said("", held: "SOS", columns: 40) == "read: (SOS)")
  }

  @Test func textHeldWhileTheViewIsUpIsWrittenOnceItIsErased() {
    let events = Mutex<[String]>([])
    let view = ReceiveView(
      palette: .plain, size: { (40, 20) }, show: { _ in },
      clear: { events.withLock { $0.append("cleared") } })
    let write = view.holding { text in events.withLock { $0.append(text) } }
    write("SOS")
    write("\n")
    #expect(events.withLock { $0 }.isEmpty)
    view.finish()
    #expect(events.withLock { $0 } == ["cleared", "SOS\n"])
  }
}
