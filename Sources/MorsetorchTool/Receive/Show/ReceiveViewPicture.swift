import MorseReceiving

/// What `receive --show` shows, as it stood at the last redraw: values only, drawn by
/// `ReceiveViewPicture`.
struct ReceiveViewState: Sendable {
  /// The latest frame, small and grey.
  var still: FrameStill?
  /// Where the light is followed, in the frame's pixels; nil while it is looked for.
  var region: LightRegion?
  /// The light's level in the latest frame read, and the threshold it is read on or off by.
  var level: (value: Double, threshold: Double)?
  /// The lowest and highest levels since the light was found where it is: the bar's ends.
  var levels: ClosedRange<Double>?
  /// The speed followed, once a mark or gap has been classed.
  var wordsPerMinute: Double?
  /// The text read so far (its end), safe to print.
  var text = ""
  /// The text the reading holds back, as it would read now, safe to print.
  var held = ""
}

/// How the picture is drawn: grey cells in 24-bit colour or in the 256-colour palette's greys
/// (two pixels a cell, `▀` over its background), or without colour, one character of an ASCII
/// density ramp a cell.
enum ReceiveViewPalette: Sendable, Hashable {
  case trueColor, grey256, plain

  /// The palette the terminal is said to have: none with `NO_COLOR` (set and not empty) or
  /// `TERM=dumb`, 24-bit with `COLORTERM` `truecolor` or `24bit`, 256 greys when `TERM`
  /// names 256 colours, else none.
  static func chosen(noColor: String?, term: String?, colorTerm: String?) -> Self {
    if !(noColor ?? "").isEmpty || term == "dumb" { return .plain }
    if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
    return (term ?? "").contains("256") ? .grey256 : .plain
  }
}

/// The live view of `receive --show` as text, from a state and the terminal's size: a pure
/// function, tested without a terminal.
///
/// The picture (each cell two pixels of the still, one over the other; at most 80 columns and
/// 30 rows, and as many fewer as the terminal needs), the light's region boxed on it, then a
/// line with the light's level as a bar (`|` the threshold), the speed and where the light
/// is, and a line with the end of the text read. Lines are joined by `\n`, each at most
/// `columns - 1` wide (never wrapped), and there are at most `rows - 1` of them.
enum ReceiveViewPicture {
  /// The widest picture, in columns.
  static let widest = 80
  /// The tallest picture, in rows.
  static let tallest = 30
  /// The lines below the picture, and the one left for the cursor.
  static let linesBelow = 3
  /// The width of the level bar, inside its brackets.
  static let barWidth = 20
  /// The ASCII density ramp of the plain palette, dark to bright.
  static let ramp = Array(" .:-=+*#%@")

  /// The picture's size in pixels (columns, and twice its rows) for a terminal of `columns`
  /// by `rows`; zero when there is no room for one.
  static func room(columns: Int, rows: Int) -> (width: Int, height: Int) {
    let (width, cellRows) = (min(columns - 1, widest), min(rows - linesBelow - 1, tallest))
    guard width >= 8, cellRows >= 2 else { return (0, 0) }
    return (width, cellRows * 2)
  }

  /// The pixels of a frame of `width` by `height` to one of the picture's, across and down,
  /// for a terminal of `columns` by `rows` (what `FrameStill` is asked to make).
  static func scale(width: Int, height: Int, columns: Int, rows: Int) -> Int {
    let room = room(columns: columns, rows: rows)
    guard room.width > 0 else { return max(width, height) }
    return max((width + room.width - 1) / room.width, (height + room.height - 1) / room.height, 1)
  }

  /// The whole view, lines joined by `\n`.
  static func text(
    _ state: ReceiveViewState, columns: Int, rows: Int, palette: ReceiveViewPalette
  ) -> String {
    (picture(state, columns: columns, rows: rows, palette: palette)
      + [status(state, columns: columns), said(state.text, held: state.held, columns: columns)])
      .suffix(max(1, rows - 1)).joined(separator: "\n")
  }

  /// The picture's lines: the still (one pixel in `step` across and down, so that it fits),
  /// the region boxed.
  static func picture(
    _ state: ReceiveViewState, columns: Int, rows: Int, palette: ReceiveViewPalette
  ) -> [String] {
    let room = room(columns: columns, rows: rows)
    guard let still = state.still, room.width > 0, still.width > 0, still.height > 0 else {
      return []
    }
    let step = max(
      (still.width + room.width - 1) / room.width, (still.height + room.height - 1) / room.height,
      1)
    let (width, height) = (still.width / step, still.height / step)
    guard width > 0, height > 0 else { return [] }
    let grey = { (x: Int, y: Int) -> Int in
      y < height ? Int(still.luma[y * step * still.width + x * step]) : 0
    }
    let box = state.region.map { Box($0, scale: still.scale * step, width: width, height: height) }
    return (0..<((height + 1) / 2)).map { row in
      var line = ""
      var colour = ""
      for column in 0..<width {
        let (top, bottom) = (grey(column, row * 2), grey(column, row * 2 + 1))
        let (character, wanted) =
          box?.character(column: column, row: row).map {
            edge(palette, $0, behind: (top + bottom) / 2)
          } ?? cell(palette, top: top, bottom: bottom)
        if wanted != colour {
          line += wanted
          colour = wanted
        }
        line.append(character)
      }
      return colour.isEmpty ? line : line + "\u{1B}[0m"
    }
  }

  /// `[#######|......]  15 WPM  light at 96,32 (16x16)`: what is known of the light.
  static func status(_ state: ReceiveViewState, columns: Int) -> String {
    var parts: [String] = []
    if let level = state.level, let levels = state.levels {
      let span = max(levels.upperBound - levels.lowerBound, 1)
      let place = { (value: Double) -> Int in
        min(barWidth - 1, max(0, Int(((value - levels.lowerBound) / span) * Double(barWidth))))
      }
      let (filled, threshold) = (place(level.value) + 1, place(level.threshold))
      let bar = (0..<barWidth).map { index -> Character in
        index == threshold ? "|" : index < filled ? "#" : "."
      }
      parts.append("[" + String(bar) + "]")
    }
    if let wordsPerMinute = state.wordsPerMinute {
      parts.append("\(Int(wordsPerMinute.rounded())) WPM")
    }
    parts.append(state.region.map { "light at \($0)" } ?? "looking for the light")
    return TerminalText.cut(parts.joined(separator: "  "), to: max(0, columns - 1))
  }

  /// `read: SOS S(OS)`: the end of the text that fits, what is held back (it may still
  /// change) in brackets (without `read: ` in under 20 columns).
  static func said(_ text: String, held: String = "", columns: Int) -> String {
    let lead = columns > TerminalText.narrowestFill ? "read: " : ""
    let text = held.isEmpty ? text : text + "(" + held + ")"
    let room = max(0, columns - 1 - lead.count)
    guard text.count > room else { return TerminalText.cut(lead + text, to: max(0, columns - 1)) }
    return room > 1 ? lead + "…" + text.suffix(room - 1) : String(text.suffix(room))
  }

  /// A cell of two pixels, `top` over `bottom`: its character and the colours it needs.
  private static func cell(_ palette: ReceiveViewPalette, top: Int, bottom: Int)
    -> (Character, String)
  {
    switch palette {
    case .trueColor:
      ("▀", "\u{1B}[38;2;\(top);\(top);\(top);48;2;\(bottom);\(bottom);\(bottom)m")
    case .grey256:
      ("▀", "\u{1B}[38;5;\(greyIndex(top));48;5;\(greyIndex(bottom))m")
    case .plain:
      (ramp[min(ramp.count - 1, (top + bottom) / 2 * ramp.count / 256)], "")
    }
  }

  /// A piece of the box, yellow over the cell's grey (`grey`), or plain ASCII.
  private static func edge(_ palette: ReceiveViewPalette, _ piece: Box.Piece, behind grey: Int)
    -> (Character, String)
  {
    switch palette {
    case .trueColor: (piece.line, "\u{1B}[38;2;255;210;0;48;2;\(grey);\(grey);\(grey)m")
    case .grey256: (piece.line, "\u{1B}[38;5;220;48;5;\(greyIndex(grey))m")
    case .plain: (piece.ascii, "")
    }
  }

  /// The 256-colour palette's nearest grey to `level`: black (16), the ramp 232-255 (8 to
  /// 238 by 10) or white (231).
  static func greyIndex(_ level: Int) -> Int {
    if level < 4 { return 16 }
    if level > 246 { return 231 }
    return 232 + min(23, max(0, (level - 8 + 5) / 10))
  }
}

/// The box around a region, in the picture's cells: a line of cells just outside it
/// (clipped to the picture), so the light itself stays in view.
struct Box: Hashable {
  /// A piece of the box's outline.
  enum Piece: Hashable {
    case topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical

    /// As a box-drawing character.
    var line: Character {
      switch self {
      case .topLeft: "┌"
      case .topRight: "┐"
      case .bottomLeft: "└"
      case .bottomRight: "┘"
      case .horizontal: "─"
      case .vertical: "│"
      }
    }

    /// In ASCII.
    var ascii: Character {
      switch self {
      case .topLeft, .topRight, .bottomLeft, .bottomRight: "+"
      case .horizontal: "-"
      case .vertical: "|"
      }
    }
  }

  /// The columns and rows of its outline (cells; each row is two pixels high).
  let left: Int, right: Int, top: Int, bottom: Int

  /// The box around `region` (in a frame's pixels) on a picture of `width` by `height`
  /// pixels, `scale` frame pixels to one of the picture's.
  init(_ region: LightRegion, scale: Int, width: Int, height: Int) {
    let scale = max(scale, 1)
    let lastRow = (height + 1) / 2 - 1
    left = max(0, region.x / scale - 1)
    right = min(width - 1, (region.x + region.width - 1) / scale + 1)
    top = max(0, region.y / scale / 2 - 1)
    bottom = min(lastRow, (region.y + region.height - 1) / scale / 2 + 1)
  }

  /// The piece of the outline at a cell, if it is on it.
  func character(column: Int, row: Int) -> Piece? {
    let (isSide, isEnd) = (column == left || column == right, row == top || row == bottom)
    guard (isSide && (top...bottom).contains(row)) || (isEnd && (left...right).contains(column))
    else { return nil }
    switch (column == left, column == right, row == top, row == bottom) {
    case (true, _, true, _): return .topLeft
    case (_, true, true, _): return .topRight
    case (true, _, _, true): return .bottomLeft
    case (_, true, _, true): return .bottomRight
    default: return isSide ? .vertical : .horizontal
    }
  }
}
