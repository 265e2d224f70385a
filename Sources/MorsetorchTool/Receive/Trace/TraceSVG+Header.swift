import MorseReceiving

extension TraceSVG {
  /// Pixels of the still for each of its cells.
  static let stillCell = 2

  /// Pixels between the rows' right margin and the still, and right of the still.
  static let stillMargin = 8.0

  /// What lies above the rows and beside them: the title with the length read and the
  /// scale, the legend, and for frames the still of where the light was found, its boxes on
  /// it, right of the rows (so the rows start under the legend, whatever its height); the
  /// height above the rows, and how far right and down the header reaches.
  var header: (height: Double, right: Double, bottom: Double, text: String) {
    let end = Double(trace.end)
    let rowsSaid =
      rows == 1
      ? "one row of \(Self.number(rowSeconds)) s" : "rows of \(Self.number(rowSeconds)) s"
    var text =
      "<text x=\"\(Self.number(Self.left))\" y=\"18\" style=\"font-size:14px\">morsetorch receive: "
      + "\(Self.said(end)) read ("
      + "\(trace.isFrames ? "a light in frames" : "edges, level 0 or 1")"
      + "); 1 s = \(Self.number(scale)) px, \(rowsSaid)</text>\n"
    let legend = self.legend(top: 30)
    text += legend.text
    var (right, bottom) = (Self.left + Self.rowWidth + Self.right, 0.0)
    if let still = trace.still {
      let width = Double(still.width * Self.stillCell)
      text += self.still(still, left: right + Self.stillMargin + width, top: 8)
      right += Self.stillMargin + width + Self.stillMargin
      // Its label's baseline 12 under it, and room for the label's descent.
      bottom = 8 + Double(still.height * Self.stillCell) + 12 + 6
    }
    return (legend.bottom + 10, right, bottom, text)
  }

  /// What was left out of the picture, if anything was, said once for the picture and for
  /// standard error: from when, and how much of each kind.
  var droppedNote: String? {
    guard let cut = trace.cut else { return nil }
    let dropped = trace.dropped
    let counts = [
      (dropped.levels, "levels"), (dropped.spans, "marks and gaps"),
      (dropped.characters, "characters"), (dropped.sightings, "sightings of the light"),
    ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
    return "--trace keeps at most \(ReceiveTrace.keptLevels) levels: from "
      + "\(Self.said(Double(cut))) on, of \(Self.said(Double(trace.end))) read, "
      + "\(counts.isEmpty ? "nothing" : counts.joined(separator: ", ")) were left out"
  }

  /// `seconds` as the title says a time: `M:SS (min:s)` past a minute, else `S s`.
  static func said(_ seconds: Double) -> String {
    seconds > 60 ? clock(seconds) + " (min:s)" : number(seconds) + " s"
  }

  /// A swatch and a name for each class, and for the lines; and where its last line ends.
  private func legend(top: Double) -> (text: String, bottom: Double) {
    var entries: [(drawing: String, name: String)] = MorseReceiver.Classed.Kind.allCases.map {
      let name = Self.className($0)
      return (
        "<path class=\"\(name) key\" d=\"M0 6h18\"/>", String(name.map { $0 == "-" ? " " : $0 })
      )
    }
    entries += [
      ("<path class=\"level key\" d=\"M0 6h18\"/>", "level"),
      ("<path class=\"threshold key\" d=\"M0 6h18\"/>", "threshold"),
      ("<path class=\"speed key\" d=\"M0 6h18\"/>", "speed followed (WPM)"),
    ]
    if trace.isFrames {
      entries += [
        ("<path class=\"found key\" d=\"M9 0v12\"/>", "light found"),
        ("<path class=\"moved key\" d=\"M9 0v12\"/>", "moved"),
        ("<path class=\"lost key\" d=\"M9 0v12\"/>", "lost"),
      ]
    }
    var text = ""
    var x = Self.left
    var y = top
    for entry in entries {
      let width = 30 + Double(entry.name.count) * 6.5
      if x + width > Self.left + Self.rowWidth - 150 {
        x = Self.left
        y += 18
      }
      text +=
        "<g transform=\"translate(\(Self.number(x)) \(Self.number(y)))\">\(entry.drawing)"
        + "<text x=\"22\" y=\"10\">\(entry.name)</text></g>\n"
      x += width
    }
    // An entry's swatch and text are 12 high, its text's descent a little more.
    return (text, y + 14)
  }

  /// `still` drawn in greys with its right edge at `right`, each light region seen boxed.
  private func still(_ still: FrameStill, left right: Double, top: Double) -> String {
    let cell = Self.stillCell
    let left = right - Double(still.width * cell)
    var paths = [String](repeating: "", count: 16)
    for row in 0..<still.height {
      var column = 0
      while column < still.width {
        let grey = Int(still.luma[row * still.width + column]) / 16
        var run = 1
        while column + run < still.width,
          Int(still.luma[row * still.width + column + run]) / 16 == grey
        {
          run += 1
        }
        paths[grey] += "M\(column * cell) \(row * cell + cell / 2)h\(run * cell)"
        column += run
      }
    }
    var text = "<g transform=\"translate(\(Self.number(left)) \(Self.number(top)))\">\n"
    for (grey, path) in paths.enumerated() where !path.isEmpty {
      let shade = grey * 17
      text +=
        "<path stroke=\"rgb(\(shade),\(shade),\(shade))\" stroke-width=\"\(cell)\" "
        + "d=\"\(path)\"/>\n"
    }
    for sighting in trace.sightings {
      let factor = Double(cell) / Double(still.scale)
      let region = sighting.region
      text +=
        "<rect class=\"\(sighting.kind)\" x=\"\(Self.number(Double(region.x) * factor))\" "
        + "y=\"\(Self.number(Double(region.y) * factor))\" "
        + "width=\"\(Self.number(max(Double(region.width) * factor, 2)))\" "
        + "height=\"\(Self.number(max(Double(region.height) * factor, 2)))\"/>\n"
    }
    text +=
      "<text class=\"t\" x=\"\(still.width * cell)\" y=\"\(still.height * cell + 12)\" "
      + "text-anchor=\"end\">where the light was</text>\n"
    return text + "</g>\n"
  }
}
