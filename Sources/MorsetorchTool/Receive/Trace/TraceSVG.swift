import MorseReceiving

/// `receive --trace`'s picture of a reading (`ReceiveTrace`), as one SVG document: the level
/// and threshold, each mark and gap in the colour of its class, the characters under their
/// marks and the speed followed, in rows of a minute (a shorter read in one row, scaled to
/// fit); above them a legend, the scale, and for frames a small grey still of where the light
/// was found, with its box. Pure: the same trace, the same text.
///
/// Numbers carry one decimal at most, marks and gaps of a kind are one path a row, and each
/// level is one point: an hour of Morse is a few megabytes. It is written a row at a time
/// (`draw(into:)`), so drawing holds one row's text besides the trace; a trace that was cut
/// (`ReceiveTrace.keptLevels`) is drawn to its cut, a line under the rows saying what was
/// left out.
struct TraceSVG {
  /// Pixels of a row's time axis.
  static let rowWidth = 1200.0
  /// Seconds a row holds, for a read longer than that.
  static let longestRow = 60.0
  /// Pixels left of the rows (their times).
  static let left = 56.0
  /// Pixels right of the rows (their speeds).
  static let right = 96.0
  /// Pixels from one row's top to the next's.
  static let rowHeight = 96.0
  /// Pixels under the rows for the line saying what was left out, if anything was.
  static let footerHeight = 24.0
  /// Where a row's parts lie, from its top: the level band's bottom (30 high), the marks'
  /// middle (12 high), the gaps' (4 high), the characters' baseline, the speed band's bottom
  /// (12 high).
  static let (levelBottom, markMiddle, gapMiddle, textBaseline, speedBottom) =
    (34.0, 46.0, 57.0, 73.0, 90.0)

  /// The trace drawn.
  let trace: ReceiveTrace
  /// Seconds each row holds.
  let rowSeconds: Double
  /// Pixels a second.
  var scale: Double { Self.rowWidth / rowSeconds }
  /// How many rows.
  let rows: Int
  /// The highest speed followed (the top of each row's speed band), at least 10 WPM.
  let topSpeed: Double

  /// The picture of `trace`.
  init(_ trace: ReceiveTrace) {
    self.trace = trace
    let end = Double(trace.drawnEnd)
    rowSeconds = end <= Self.longestRow ? max(end, 0.1) : Self.longestRow
    rows = max(Int((end / rowSeconds).rounded(.up)), 1)
    topSpeed = max(Double(trace.spans.map(\.wordsPerMinute).max() ?? 0), 10)
  }

  /// The whole document.
  var text: String {
    var text = ""
    draw { text += $0 }
    return text
  }

  /// Gives the document to `output` in parts: the header, each row, the end.
  func draw<Failure: Error>(into output: (String) throws(Failure) -> Void) throws(Failure) {
    let header = self.header
    let footer = droppedNote.map { "Not drawn: \($0)." }
    let rowsEnd = header.height + Double(rows) * Self.rowHeight
    let height = rowsEnd + (footer == nil ? 0 : Self.footerHeight)
    let width = Self.left + Self.rowWidth + Self.right
    let svg = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.number(width))" height="\(Self.number(height))" \
      viewBox="0 0 \(Self.number(width)) \(Self.number(height))">
      <style>\(Self.style)</style>
      <rect width="100%" height="100%" fill="#fff"/>

      """
    try output(svg + header.text)
    for row in 0..<rows {
      try output(self.row(row, top: header.height + Double(row) * Self.rowHeight))
    }
    if let footer {
      try output(
        "<text x=\"\(Self.number(Self.left))\" y=\"\(Self.number(rowsEnd + 14))\">"
          + "\(Self.escaped(footer))</text>\n")
    }
    try output("</svg>\n")
  }

  /// The colours and lines of each class.
  static let style = """
    text{font:11px sans-serif;fill:#111}.c{text-anchor:middle;font:bold 11px monospace}\
    .t{fill:#666;font-size:10px}.dot,.dash{stroke-width:12}\
    .element-gap,.letter-gap,.word-gap,.line-break{stroke-width:4}\
    .dot{stroke:#1d4ed8}.dash{stroke:#dc2626}.element-gap{stroke:#cbd5e1}\
    .letter-gap{stroke:#16a34a}.word-gap{stroke:#9333ea}.line-break{stroke:#111}\
    .level,.threshold,.speed{fill:none}.level{stroke:#374151}\
    .threshold{stroke:#f59e0b;stroke-dasharray:4 3}.speed{stroke:#0891b2}\
    .found,.moved,.lost{fill:none;stroke-width:1.5}.found{stroke:#16a34a}\
    .moved{stroke:#ea580c}.lost{stroke:#dc2626;stroke-dasharray:3 2}.tick{stroke:#999}
    """

  /// The class name of `kind`, as the style and legend have it.
  static func className(_ kind: MorseReceiver.Classed.Kind) -> String {
    switch kind {
    case .dot: "dot"
    case .dash: "dash"
    case .elementGap: "element-gap"
    case .letterGap: "letter-gap"
    case .wordGap: "word-gap"
    case .lineBreak: "line-break"
    }
  }

  /// Row `row`, its top at `top`.
  private func row(_ row: Int, top: Double) -> String {
    let start = Double(row) * rowSeconds
    let range = Float(start)...Float(start + rowSeconds)
    var svg = "<g transform=\"translate(\(Self.number(Self.left)) \(Self.number(top)))\">\n"
    svg +=
      "<text x=\"-8\" y=\"\(Self.number(Self.markMiddle + 4))\" text-anchor=\"end\">"
      + "\(Self.clock(start))</text>\n"
    svg += ticks()
    svg += levels(in: range, from: start)
    svg += spans(in: range, from: start)
    for character in trace.characters where range.contains(character.start) {
      let middle = (Double(character.start + character.end) / 2 - start) * scale
      svg +=
        "<text class=\"c\" x=\"\(Self.number(middle))\" y=\"\(Self.number(Self.textBaseline))\">"
        + "\(Self.escaped(character.text))</text>\n"
    }
    for sighting in trace.sightings where range.contains(sighting.time) {
      let x = Self.number((Double(sighting.time) - start) * scale)
      svg +=
        "<path class=\"\(sighting.kind)\" d=\"M\(x) 0V\(Self.number(Self.speedBottom))\"/>"
        + "<text x=\"\(x)\" y=\"-2\">light \(sighting.kind)</text>\n"
    }
    return svg + "</g>\n"
  }

  /// A tick every tenth of the row, under the level band.
  private func ticks() -> String {
    var path = ""
    for tenth in 0...10 {
      path +=
        "M\(Self.number(Self.rowWidth * Double(tenth) / 10)) \(Self.number(Self.levelBottom))v3"
    }
    return "<path class=\"tick\" d=\"\(path)\"/>\n"
  }

  /// The level and threshold lines of the levels within `range`, from the one before it.
  private func levels(in range: ClosedRange<Float>, from start: Double) -> String {
    let first = Self.firstIndex(in: trace.levels, atOrAfter: range.lowerBound) { $0.time }
    let end = Self.firstIndex(in: trace.levels, atOrAfter: range.upperBound) { $0.time }
    let shown = trace.levels[max(first - 1, 0)..<min(end + 1, trace.levels.count)]
    guard shown.count > 1 else { return "" }
    var (low, high) = (Float.infinity, -Float.infinity)
    for level in shown {
      (low, high) = (
        min(low, level.level, level.threshold), max(high, level.level, level.threshold)
      )
    }
    let height = max(high - low, 1e-6)
    func point(_ time: Float, _ value: Float) -> (x: Double, y: Double) {
      let x = min(max((Double(time) - start) * scale, 0), Self.rowWidth)
      return (x, Self.levelBottom - 2 - Double((value - low) / height) * 28)
    }
    let level = Self.polyline(shown.map { point($0.time, $0.level) }, minimumStep: 0)
    let threshold = Self.polyline(shown.map { point($0.time, $0.threshold) }, minimumStep: 0.5)
    return "<polyline class=\"level\" points=\"\(level)\"/>\n"
      + "<polyline class=\"threshold\" points=\"\(threshold)\"/>\n"
  }

  /// The marks and gaps within `range` (cut at its ends), a path for each class; the speed
  /// followed as a line; the row's lowest and highest speed at its right.
  private func spans(in range: ClosedRange<Float>, from start: Double) -> String {
    var paths: [MorseReceiver.Classed.Kind: String] = [:]
    var speeds: [(x: Double, y: Double)] = []
    var (slowest, fastest) = (Float.infinity, -Float.infinity)
    let first = Self.firstIndex(in: trace.spans, atOrAfter: range.lowerBound) { $0.end }
    for span in trace.spans[first...] {
      guard span.start < range.upperBound else { break }
      let from = (Double(max(span.start, range.lowerBound)) - start) * scale
      let to = (Double(min(span.end, range.upperBound)) - start) * scale
      let middle = span.kind.isMark ? Self.markMiddle : Self.gapMiddle
      paths[span.kind, default: ""] +=
        "M\(Self.number(from)) \(Self.number(middle))h\(Self.number(to - from))"
      guard span.kind.isMark else { continue }
      (slowest, fastest) = (min(slowest, span.wordsPerMinute), max(fastest, span.wordsPerMinute))
      speeds.append(
        (to, Self.speedBottom - Double(span.wordsPerMinute) / topSpeed * 12))
    }
    var svg = ""
    for kind in MorseReceiver.Classed.Kind.allCases {
      guard let path = paths[kind] else { continue }
      svg += "<path class=\"\(Self.className(kind))\" d=\"\(path)\"/>\n"
    }
    guard let last = speeds.last else { return svg }
    if speeds.count == 1 { speeds.insert((0, last.y), at: 0) }
    svg += "<polyline class=\"speed\" points=\"\(Self.polyline(speeds, minimumStep: 0.3))\"/>\n"
    let said =
      slowest.rounded() == fastest.rounded()
      ? "\(Int(fastest.rounded())) WPM" : "\(Int(slowest.rounded()))-\(Int(fastest.rounded())) WPM"
    return svg
      + "<text class=\"t\" x=\"\(Self.number(Self.rowWidth + 6))\" y=\"\(Self.number(Self.speedBottom))\">\(said)</text>\n"
  }

  /// The index of the first of `items` (in order of `key`) whose key is at or after `value`.
  private static func firstIndex<Item>(
    in items: [Item], atOrAfter value: Float, _ key: (Item) -> Float
  ) -> Int {
    var (low, high) = (0, items.count)
    while low < high {
      let middle = (low + high) / 2
      if key(items[middle]) < value { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// `points` as a polyline's `points`, leaving out a point whose height differs from the
  /// last kept by under `minimumStep` (and the next's too), and any at the same x and height.
  private static func polyline(_ points: [(x: Double, y: Double)], minimumStep: Double) -> String {
    var text = ""
    var kept: (x: String, y: String, height: Double)?
    for (index, point) in points.enumerated() {
      let (x, y) = (number(point.x), number(point.y))
      if let last = kept, index < points.count - 1 {
        if last.x == x && last.y == y { continue }
        let next = points[index + 1].y
        if abs(point.y - last.height) < minimumStep && abs(next - last.height) < minimumStep {
          continue
        }
      }
      text += text.isEmpty ? "\(x),\(y)" : " \(x),\(y)"
      kept = (x, y, point.y)
    }
    return text
  }

  /// `value` to one decimal, without a trailing `.0`.
  static func number(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    let whole = "\(tenths < 0 ? "-" : "")\(abs(tenths) / 10)"
    return abs(tenths) % 10 == 0 ? whole : "\(whole).\(abs(tenths) % 10)"
  }

  /// `seconds` as `M:SS`.
  static func clock(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded())
    return "\(whole / 60):\(whole % 60 < 10 ? "0" : "")\(whole % 60)"
  }

  /// `text` safe inside an element or an attribute: `&`, `<`, `>` and `"` as entities.
  static func escaped(_ text: String) -> String {
    text.reduce(into: "") { escaped, character in
      escaped += entities[character] ?? String(character)
    }
  }

  /// The characters XML reserves, and their entities.
  private static let entities: [Character: String] = [
    "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;",
  ]
}
