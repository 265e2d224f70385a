import MorseReceiving

/// `receive --trace`'s picture of a reading (`ReceiveTrace`), as one SVG document: the level
/// and threshold, each mark and gap in the colour of its class, the characters under their
/// marks and the speed followed, in rows of a minute (a shorter read in one row, scaled to
/// fit), each over a time axis labelled in seconds from the row's start; above them a legend
/// and the scale, and for frames, right of the rows, a small grey still of where the light
/// was found, with its box. No two labels overlap: those that would are put in lanes, and a
/// row is as tall as its lanes need. Pure: the same trace, the same text.
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
  /// Pixels from one row's top to the next's, with no more than one lane of labels for the
  /// characters and none for sightings of the light (each lane more: `labelHeight`).
  static let rowHeight = 110.0
  /// Pixels of a lane of labels: the sightings' above a row, the characters' under the
  /// first.
  static let labelHeight = 12.0
  /// Pixels at least between two labels in a lane.
  static let labelGap = 4.0
  /// Pixels a character of a label is taken to be wide, in the style's fonts: 11 px sans
  /// serif (a generous mean), 11 px bold monospace (0.6 em), 10 px sans serif.
  static let (textWidth, characterTextWidth, tickTextWidth) = (6.5, 7.0, 6.0)
  /// Pixels at least between labelled ticks.
  static let tickSpacing = 60.0
  /// Pixels under the rows for the line saying what was left out, if anything was.
  static let footerHeight = 24.0
  /// Where a row's parts lie, from its top: the level band's bottom (30 high), the marks'
  /// middle (12 high), the gaps' (4 high), the characters' baseline (of their first lane),
  /// the speed band's bottom (12 high) with the time axis under it (ticks 4 long, their
  /// labels' baseline 16 below).
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
  /// Each row's top from the rows' top, and the rows' bottom last.
  let rowTops: [Double]
  /// Seconds between labelled ticks of the time axis.
  let tickStep: Double

  /// The picture of `trace`.
  init(_ trace: ReceiveTrace) {
    self.trace = trace
    let end = Double(trace.drawnEnd)
    rowSeconds = end <= Self.longestRow ? max(end, 0.1) : Self.longestRow
    rows = max(Int((end / rowSeconds).rounded(.up)), 1)
    topSpeed = max(Double(trace.spans.map(\.wordsPerMinute).max() ?? 0), 10)
    tickStep = Self.tickStep(rowSeconds: rowSeconds)
    var tops = [0.0]
    for row in 0..<rows {
      tops.append(tops[row] + Self.labels(of: trace, row: row, rowSeconds: rowSeconds).height)
    }
    rowTops = tops
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
    let rowsEnd = header.height + rowTops[rows]
    let height = max(rowsEnd + (footer == nil ? 0 : Self.footerHeight), header.bottom)
    let width = header.right
    let svg = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.number(width))" height="\(Self.number(height))" \
      viewBox="0 0 \(Self.number(width)) \(Self.number(height))">
      <style>\(Self.style)</style>
      <rect width="100%" height="100%" fill="#fff"/>

      """
    try output(svg + header.text)
    for row in 0..<rows {
      try output(self.row(row, top: header.height + rowTops[row]))
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

  /// Row `row`, its block's top at `top`: its sightings' labels in lanes above it, its
  /// characters' in lanes from the text baseline down, pushing the speed band and the time
  /// axis down as far.
  private func row(_ row: Int, top: Double) -> String {
    let start = Double(row) * rowSeconds
    let range = Float(start)...Float(start + rowSeconds)
    let labels = Self.labels(of: trace, row: row, rowSeconds: rowSeconds)
    let origin = top + labels.above
    let speedBottom = Self.speedBottom + labels.below
    var svg = "<g transform=\"translate(\(Self.number(Self.left)) \(Self.number(origin)))\">\n"
    svg +=
      "<text x=\"-8\" y=\"\(Self.number(Self.markMiddle + 4))\" text-anchor=\"end\">"
      + "\(Self.clock(start))</text>\n"
    svg += axis(at: speedBottom)
    svg += levels(in: range, from: start)
    svg += spans(in: range, from: start, speedBottom: speedBottom)
    for (index, lane) in zip(labels.characters, labels.characterLanes) {
      let character = trace.characters[index]
      let middle = (Double(character.start + character.end) / 2 - start) * scale
      let y = Self.textBaseline + Double(lane) * Self.labelHeight
      svg +=
        "<text class=\"c\" x=\"\(Self.number(middle))\" y=\"\(Self.number(y))\">"
        + "\(Self.escaped(character.text))</text>\n"
    }
    for (index, lane) in zip(labels.sightings, labels.sightingLanes) {
      let sighting = trace.sightings[index]
      let x = Self.number((Double(sighting.time) - start) * scale)
      let y = Self.number(-2 - Double(lane) * Self.labelHeight)
      svg +=
        "<path class=\"\(sighting.kind)\" d=\"M\(x) 0V\(Self.number(speedBottom))\"/>"
        + "<text x=\"\(x)\" y=\"\(y)\">light \(sighting.kind)</text>\n"
    }
    return svg + "</g>\n"
  }

  /// The labels of row `row` of `trace`: which characters and sightings it holds, the lane
  /// of each one's label, and the room the lanes take.
  struct RowLabels {
    /// The indices of the row's characters and sightings in the trace's.
    let characters: [Int]
    let sightings: [Int]
    /// The lane of each one's label: the characters' from the text baseline down, the
    /// sightings' from the row's top up.
    let characterLanes: [Int]
    let sightingLanes: [Int]
    /// Pixels above the row for the sightings' lanes.
    var above: Double { Double(sightingLanes.max().map { $0 + 1 } ?? 0) * TraceSVG.labelHeight }
    /// Pixels the characters' lanes after the first take.
    var below: Double { Double(characterLanes.max() ?? 0) * TraceSVG.labelHeight }
    /// The row's whole height.
    var height: Double { above + TraceSVG.rowHeight + below }
  }

  /// The labels of row `row` of `trace`, its rows `rowSeconds` long.
  static func labels(of trace: ReceiveTrace, row: Int, rowSeconds: Double) -> RowLabels {
    let start = Double(row) * rowSeconds
    let scale = rowWidth / rowSeconds
    // A row holds what starts from its start to its end, the end itself included.
    let range = Float(start)...Float(start + rowSeconds)
    let characters = trace.characters.indices.filter { range.contains(trace.characters[$0].start) }
    let sightings = trace.sightings.indices.filter { range.contains(trace.sightings[$0].time) }
    let characterLanes = lanes(
      characters.map { trace.characters[$0] }.map { character in
        let middle = (Double(character.start + character.end) / 2 - start) * scale
        let half = Double(character.text.count) * characterTextWidth / 2
        return (middle - half, middle + half)
      })
    let sightingLanes = lanes(
      sightings.map { trace.sightings[$0] }.map { sighting in
        let x = (Double(sighting.time) - start) * scale
        return (x, x + Double("light \(sighting.kind)".count) * textWidth)
      })
    return RowLabels(
      characters: characters, sightings: sightings, characterLanes: characterLanes,
      sightingLanes: sightingLanes)
  }

  /// The lane of each label of `extents` (its left and right ends): the first lane where it
  /// starts `labelGap` or more right of every label there, so no two in a lane overlap.
  static func lanes(_ extents: [(left: Double, right: Double)]) -> [Int] {
    var ends: [Double] = []
    return extents.map { extent in
      let lane = ends.firstIndex { $0 + labelGap <= extent.left } ?? ends.count
      if lane == ends.count { ends.append(extent.right) } else { ends[lane] = extent.right }
      return lane
    }
  }

  /// Seconds between labelled ticks for rows `rowSeconds` long: the least of 1, 2 or 5
  /// times a power of ten that leaves `tickSpacing` between them, and room for the widest
  /// label.
  static func tickStep(rowSeconds: Double) -> Double {
    let scale = rowWidth / rowSeconds
    var power = 0.001
    while true {
      for step in [power, power * 2, power * 5] {
        let widest = Double(tickLabel(rowSeconds, step: step).count) * tickTextWidth
        if step * scale >= max(tickSpacing, widest + 4 * labelGap) { return step }
      }
      power *= 10
    }
  }

  /// `seconds` from a row's start as its tick is labelled: as many decimals as `step` has.
  static func tickLabel(_ seconds: Double, step: Double) -> String {
    let places = step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3
    var factor = 1
    for _ in 0..<places { factor *= 10 }
    let units = Int((seconds * Double(factor)).rounded())
    let fraction = String(units % factor)
    let decimals =
      places == 0 ? "" : "." + String(repeating: "0", count: places - fraction.count) + fraction
    return "\(units / factor)\(decimals) s"
  }

  /// The time axis under the speed band (its bottom at `speedBottom`): a tick every
  /// `tickStep`, labelled with the seconds from the row's start.
  private func axis(at speedBottom: Double) -> String {
    var path = ""
    var labels = ""
    var index = 0
    while Double(index) * tickStep <= rowSeconds * (1 + 1e-9) {
      let seconds = Double(index) * tickStep
      let x = Self.number(seconds * scale)
      path += "M\(x) \(Self.number(speedBottom + 2))v4"
      labels +=
        "<text class=\"t\" x=\"\(x)\" y=\"\(Self.number(speedBottom + 16))\" "
        + "text-anchor=\"middle\">\(Self.tickLabel(seconds, step: tickStep))</text>"
      index += 1
    }
    return "<path class=\"tick\" d=\"\(path)\"/>\n" + labels + "\n"
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
  private func spans(in range: ClosedRange<Float>, from start: Double, speedBottom: Double)
    -> String
  {
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
      speeds.append((to, speedBottom - Double(span.wordsPerMinute) / topSpeed * 12))
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
      + "<text class=\"t\" x=\"\(Self.number(Self.rowWidth + 6))\" y=\"\(Self.number(speedBottom))\">\(said)</text>\n"
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
