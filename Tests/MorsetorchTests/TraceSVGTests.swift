import Instants
import MorseCore
import MorseReceiving
import MorseTestSupport
import Testing

@testable import MorsetorchTool

/// The trace of a reading of `inputs` (edges or frames), as `receive --trace` gathers it.
func traced(_ inputs: [MorseReading.Input], reading: MorseReading) -> ReceiveTrace {
  var reading = reading
  reading.isTracing = true
  var trace = ReceiveTrace()
  for input in inputs { reading.read(input) { trace.add($0) } }
  for event in reading.finish() { trace.add(event) }
  return trace
}

/// The edges of `text` sent perfectly at `wpm`, from `start`.
func sentEdges(_ text: String, wpm: Int, from start: MonotonicInstant = .origin) throws
  -> [MorseEdge]
{
  MorseEdge.edges(
    of: MorseSteps(try MorseMessage(text), timing: try MorseTiming(wordsPerMinute: wpm)),
    from: start)
}

/// The segments (`M x y h w`) of the paths of `className` in `svg`, each row's in order.
func segments(of className: String, in svg: String) -> [(x: Double, width: Double)] {
  var found: [(x: Double, width: Double)] = []
  for path in svg.split(separator: "<path class=\"\(className)\" d=\"").dropFirst() {
    let data = path.prefix { $0 != "\"" }
    for segment in data.split(separator: "M") {
      let parts = segment.split(separator: "h")
      guard parts.count == 2, let x = Double(parts[0].split(separator: " ")[0]),
        let width = Double(parts[1])
      else { continue }
      found.append((x, width))
    }
  }
  return found
}

/// The marks of `edges` in pixels at `scale` a second from the first edge, as drawn.
func expectedMarks(_ edges: [MorseEdge], scale: Double) -> [(x: Double, width: Double)] {
  let origin = edges[0].time
  func pixels(_ time: MonotonicInstant) -> Double {
    let (whole, fraction) = (time - origin).components
    return (Double(whole) + Double(fraction) / 1e18) * scale
  }
  return stride(from: 0, to: edges.count - 1, by: 2).map {
    (pixels(edges[$0].time), pixels(edges[$0 + 1].time) - pixels(edges[$0].time))
  }
}

/// A block of `PARIS` words at 60 WPM (1400 pulses) sent again and again, a word gap
/// apart, until `pulses` pulses: made as it is read, never held whole.
func parisPulses(_ pulses: Int) throws -> some Sequence<MorseEdge> {
  let block = try sentEdges(Array(repeating: "PARIS", count: 100).joined(separator: " "), wpm: 60)
  let next = try #require(block.last).time - .origin + .milliseconds(140)
  return (0..<(pulses * 2 + block.count - 1) / block.count).lazy.flatMap { repeated in
    block.lazy.map { MorseEdge(time: $0.time + next * repeated, isOn: $0.isOn) }
  }.prefix(pulses * 2)
}

@Suite struct TraceSVGTests {
  @Test func aMillionPulsesKeepABoundedTraceAndThePictureSaysWhatWasLeftOut() throws {
    var reading = MorseReading(receiver: MorseReceiver())
    reading.isTracing = true
    var trace = ReceiveTrace()
    var edges = 0
    for edge in try parisPulses(1_000_000) {
      reading.read(.edge(edge)) { trace.add($0) }
      edges += 1
    }
    for event in reading.finish() { trace.add(event) }
    #expect(edges == 2_000_000)
    let limit = ReceiveTrace.keptLevels
    #expect(trace.levels.count <= limit && trace.spans.count <= limit)
    #expect(trace.characters.count <= limit && trace.sightings.count <= ReceiveTrace.keptSightings)
    let kept =
      trace.levels.count * MemoryLayout<ReceiveTrace.Level>.stride
      + trace.spans.count * MemoryLayout<ReceiveTrace.Span>.stride
      + trace.characters.count * MemoryLayout<ReceiveTrace.Character>.stride
    #expect(kept < 8_000_000, "\(kept) bytes kept")
    // Every level is kept or counted left out (two an edge but the first); the rest too.
    #expect(trace.levels.count + trace.dropped.levels == edges * 2 - 1)
    #expect(trace.spans.count + trace.dropped.spans >= edges - 1)
    #expect(trace.dropped.characters > 0)
    let cut = try #require(trace.cut)
    #expect(trace.levels.allSatisfy { $0.time <= cut } && trace.spans.allSatisfy { $0.start < cut })
    // The picture is drawn to the cut, says how long the reading was and what it left out.
    let picture = TraceSVG(trace)
    #expect(picture.rows == Int((Double(cut) / 60).rounded(.up)))
    let svg = picture.text
    #expect(svg.contains(">morsetorch receive: \(TraceSVG.clock(Double(trace.end))) (min:s) read"))
    let note = try #require(picture.droppedNote)
    #expect(svg.contains(">Not drawn: \(note).</text>"))
    #expect(note.contains("\(trace.dropped.levels) levels, \(trace.dropped.spans) marks and gaps"))
    #expect(note.contains("from \(TraceSVG.clock(Double(cut))) (min:s) on"))
    #expect(ManualTopics.receiving.contains("at most \(limit) levels"))
  }

  @Test func aReadWithinTheBoundIsDrawnWholeAndSaysNothingLeftOut() throws {
    let edges = try sentEdges("PARIS", wpm: 20)
    let trace = traced(edges.map { .edge($0) }, reading: MorseReading(receiver: MorseReceiver()))
    #expect(trace.cut == nil && trace.dropped == ReceiveTrace.Dropped())
    #expect(TraceSVG(trace).droppedNote == nil && !TraceSVG(trace).text.contains("Not drawn"))
  }

  @Test func marksLieWhereTheEdgesPutThemInTheColoursOfTheirClass() throws {
    let edges = try sentEdges("PARIS", wpm: 20)
    let picture = TraceSVG(
      traced(edges.map { .edge($0) }, reading: MorseReading(receiver: MorseReceiver())))
    let svg = picture.text
    #expect(picture.rows == 1)
    let marks = (segments(of: "dot", in: svg) + segments(of: "dash", in: svg)).sorted {
      $0.x < $1.x
    }
    let expected = expectedMarks(edges, scale: picture.scale)
    #expect(marks.count == expected.count)
    for (mark, edge) in zip(marks, expected) {
      #expect(abs(mark.x - edge.x) <= 0.051 && abs(mark.width - edge.width) <= 0.11)
    }
    // PARIS: .--. .- .-. .. ... — 10 dots, 4 dashes; the dots a third of the dashes.
    let dots = segments(of: "dot", in: svg)
    let dashes = segments(of: "dash", in: svg)
    #expect(dots.count == 10 && dashes.count == 4)
    #expect(abs(dashes[0].width / dots[0].width - 3) < 0.1)
    #expect(segments(of: "letter-gap", in: svg).count == 4)
    #expect(segments(of: "element-gap", in: svg).count == 9)
    #expect(svg.contains(".dot{stroke:#1d4ed8}") && svg.contains(".dash{stroke:#dc2626}"))
    for name in ["dot", "dash", "element gap", "letter gap", "word gap", "line break", "threshold"]
    {
      #expect(svg.contains(">\(name)</text>"), "legend: \(name)")
    }
    let letters = svg.split(separator: "<text class=\"c\"").dropFirst().map {
      $0.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" }
    }
    #expect(letters.joined() == "PARIS")
  }

  @Test func aProsignIsEscapedAndTheDocumentIsOneSVG() throws {
    let edges = try sentEdges("<SK>", wpm: 15)
    let svg = TraceSVG(
      traced(edges.map { .edge($0) }, reading: MorseReading(receiver: MorseReceiver()))
    ).text
    #expect(svg.contains(">&lt;SK&gt;</text>"))
    #expect(svg.hasPrefix("<?xml") && svg.hasSuffix("</svg>\n"))
    #expect(svg.split(separator: "<svg ").count == 2)
  }

  @Test func aLongReadWrapsIntoRowsOfAMinuteAndSaysTheScale() throws {
    // About three and a half minutes at 10 WPM.
    let edges = try sentEdges(Array(repeating: "PARIS", count: 35).joined(separator: " "), wpm: 10)
    let picture = TraceSVG(
      traced(edges.map { .edge($0) }, reading: MorseReading(receiver: MorseReceiver())))
    let svg = picture.text
    #expect(picture.rows == 4)
    #expect(picture.scale == 20)
    #expect(svg.contains("1 s = 20 px, rows of 60 s"))
    #expect(svg.contains(">3:00</text>"))
    // Every mark is drawn once, cut in two only where it crosses a row's end.
    let marks = segments(of: "dot", in: svg).count + segments(of: "dash", in: svg).count
    #expect(marks >= edges.count / 2 && marks <= edges.count / 2 + 3)
    // One decimal at most, never an exponent.
    #expect(!svg.contains(".00") && !svg.contains("e-0") && !svg.contains("e+"))
  }

  @Test func anHourOfMorseIsAFewMegabytesAtMost() throws {
    let text = Array(repeating: "CQ CQ DE N0CALL PARIS 73", count: 240).joined(separator: " ")
    let edges = try sentEdges(text, wpm: 20)
    let picture = TraceSVG(
      traced(edges.map { .edge($0) }, reading: MorseReading(receiver: MorseReceiver())))
    #expect(picture.rows >= 60)
    let size = picture.text.utf8.count
    #expect(size < 4_000_000, "\(size) bytes")
  }

  @Test(arguments: ["PARIS", "TEST", "CQ CQ", "SOS"])
  func theStillShowsTheLightOn(text: String) throws {
    let scene = SyntheticScene()
    let frames = scene.frames(showing: try sentEdges(text, wpm: 15))
    let reading = MorseReading(
      receiver: MorseReceiver(),
      light: LightReceiver(frameInterval: .seconds(1 / scene.framesPerSecond)))
    let still = try #require(traced(frames.map { .frame($0) }, reading: reading).still)
    // The light's cell (its centre at 100,40) against a cell of the dark room beside it.
    func luma(x: Double, y: Double) -> Int {
      Int(still.luma[Int(y) / still.scale * still.width + Int(x) / still.scale])
    }
    let (light, room) = (luma(x: scene.lightX, y: scene.lightY), luma(x: 20, y: 20))
    #expect(light > room + Int(scene.lightBrightness) / 2, "light \(light), room \(room)")
  }

  @Test func framesShowTheLightsLevelItsStillAndWhereItWasFound() throws {
    let scene = SyntheticScene()
    let frames = scene.frames(showing: try sentEdges("PARIS", wpm: 15))
    let reading = MorseReading(
      receiver: MorseReceiver(),
      light: LightReceiver(frameInterval: .seconds(1 / scene.framesPerSecond)))
    let trace = traced(frames.map { .frame($0) }, reading: reading)
    #expect(trace.isFrames)
    // Every frame's level, those kept until the light was found too; no edge as a level.
    #expect(trace.levels.count == frames.count)
    let still = try #require(trace.still)
    #expect(still.width == 53 && still.height == 40 && still.scale == 3)  // 160x120: 3 px a cell
    #expect(trace.sightings.first?.kind == .found)
    let svg = TraceSVG(trace).text
    #expect(svg.contains("<rect class=\"found\""))
    #expect(svg.contains(">light found</text>"))
    #expect(svg.contains("stroke-width=\"2\" d=\"M0 1h"))
    #expect(segments(of: "dot", in: svg).count == 10)
    // The level line has a point for (nearly) every frame read since it was found.
    let level = try #require(svg.split(separator: "<polyline class=\"level\" points=\"").last)
    #expect(level.prefix { $0 != "\"" }.split(separator: " ").count > 30)
  }
}

/// A text of a picture and its box, in the picture's coordinates (its group's translation
/// added), taken generously from its font: 0.6 em a character (monospace's width, more than
/// a sans serif's mean), 0.8 em above the baseline and 0.25 em under it.
struct PictureLabel {
  let text: String
  let x: Double
  let y: Double
  let left: Double
  let right: Double
  let top: Double
  let bottom: Double
  let className: String?

  func overlaps(_ other: PictureLabel) -> Bool {
    left < other.right && other.left < right && top < other.bottom && other.top < bottom
  }
}

/// The value of attribute `name` in `tag`.
private func attribute(_ name: String, in tag: Substring) -> String? {
  guard let range = tag.range(of: " \(name)=\"") else { return nil }
  return String(tag[range.upperBound...].prefix { $0 != "\"" })
}

/// The translation of a `<g transform="translate(X Y)">` line.
func translation(_ line: Substring) -> (x: Double, y: Double)? {
  guard let range = line.range(of: "<g transform=\"translate(") else { return nil }
  let numbers = line[range.upperBound...].prefix { $0 != ")" }.split(separator: " ")
  guard numbers.count == 2, let x = Double(numbers[0]), let y = Double(numbers[1]) else {
    return nil
  }
  return (x, y)
}

/// Every text of `svg` (as `TraceSVG` writes it: a group's opening on a line of its own or
/// with all it holds), with its box.
func pictureLabels(in svg: String) -> [PictureLabel] {
  var labels: [PictureLabel] = []
  var offset = (x: 0.0, y: 0.0)
  for line in svg.split(separator: "\n") {
    if let translation = translation(line) { offset = translation }
    for part in line.split(separator: "<text", omittingEmptySubsequences: false).dropFirst() {
      let tag = part.prefix { $0 != ">" }
      let text = part.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" }
        .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        .replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&quot;", with: "\"")
      let className = attribute("class", in: tag)
      let size = tag.contains("font-size:14px") ? 14.0 : className == "t" ? 10 : 11
      let x = offset.x + (attribute("x", in: tag).flatMap(Double.init) ?? 0)
      let y = offset.y + (attribute("y", in: tag).flatMap(Double.init) ?? 0)
      let width = Double(text.count) * 0.6 * size
      let anchor = className == "c" ? "middle" : attribute("text-anchor", in: tag) ?? "start"
      let left = anchor == "middle" ? x - width / 2 : anchor == "end" ? x - width : x
      labels.append(
        PictureLabel(
          text: text, x: x, y: y, left: left, right: left + width, top: y - 0.8 * size,
          bottom: y + 0.25 * size, className: className))
    }
    if line.hasSuffix("</g>") { offset = (0, 0) }
  }
  return labels
}

/// The picture's height, from its `<svg>` element.
func pictureHeight(_ svg: String) -> Double? {
  svg.split(separator: "\n").first { $0.hasPrefix("<svg ") }.flatMap {
    attribute("height", in: $0).flatMap(Double.init)
  }
}

/// The trace of `text` sent at `wpm`, with the light's sightings `sightings` (kind,
/// seconds) added as a reading of frames would.
func tracedEdges(
  _ text: String, wpm: Int, sightings: [(ReceiveTrace.Sighting.Kind, Double)] = []
) throws -> ReceiveTrace {
  var trace = traced(
    try sentEdges(text, wpm: wpm).map { .edge($0) },
    reading: MorseReading(receiver: MorseReceiver()))
  let region = try #require(LightRegion(x: 10, y: 10, width: 4, height: 4))
  for (kind, seconds) in sightings {
    let after = Duration.milliseconds(Int(seconds * 1000))
    switch kind {
    case .found: trace.add(.found(region, after: after))
    case .moved: trace.add(.moved(region, after: after))
    case .lost: trace.add(.lost(region, after: after))
    }
  }
  return trace
}

@Suite struct TraceSVGLayoutTests {
  /// Pictures whose labels crowd: the light lost and found again at one moment and moved
  /// just after; prosigns and figures at 40 WPM in rows of a minute.
  static let crowded: [(String, @Sendable () throws -> ReceiveTrace)] = [
    (
      "sightings at one moment",
      { try tracedEdges("PARIS", wpm: 20, sightings: [(.lost, 1), (.found, 1), (.moved, 1.05)]) }
    ),
    (
      "sightings apart",
      { try tracedEdges("PARIS", wpm: 20, sightings: [(.found, 0.5), (.lost, 2.5)]) }
    ),
    (
      "fast characters",
      {
        try tracedEdges(
          Array(repeating: "<SK> 73 PARIS", count: 40).joined(separator: " "), wpm: 40)
      }
    ),
  ]

  @Test(arguments: crowded.indices)
  func noTwoLabelsOverlap(picture: Int) throws {
    let (name, trace) = Self.crowded[picture]
    let labels = pictureLabels(in: TraceSVG(try trace()).text)
    #expect(labels.count > 10, "\(name)")
    var overlaps: [String] = []
    for (index, label) in labels.enumerated() {
      for other in labels[(index + 1)...] where label.overlaps(other) {
        overlaps.append("\(label.text)@\(label.x),\(label.y) / \(other.text)@\(other.x),\(other.y)")
      }
    }
    #expect(overlaps.isEmpty, "\(name): \(overlaps.prefix(5))")
  }

  @Test func theLightLostAndFoundAtOneMomentAreBothSaidOneAboveTheOther() throws {
    let svg = TraceSVG(try tracedEdges("PARIS", wpm: 20, sightings: [(.lost, 1), (.found, 1)])).text
    let labels = pictureLabels(in: svg)
    let lost = try #require(labels.first { $0.text == "light lost" })
    let found = try #require(labels.first { $0.text == "light found" })
    #expect(lost.x == found.x && abs(lost.y - found.y) >= 12)
  }

  /// The labelled ticks of each row: (x of its tick, label), from the rows' groups.
  private func axes(_ svg: String) -> [[(tick: Double, label: PictureLabel)]] {
    var rows: [[(Double, PictureLabel)]] = []
    let lines = svg.split(separator: "\n")
    for (index, line) in lines.enumerated() where line.hasPrefix("<path class=\"tick\"") {
      let origin = lines[..<index].reversed().lazy.compactMap(translation).first ?? (0, 0)
      let ticks = line.split(separator: "M").dropFirst().compactMap {
        Double($0.split(separator: " ")[0]).map { $0 + origin.x }
      }
      let labels = pictureLabels(
        in: "<g transform=\"translate(\(origin.x) \(origin.y))\">\n" + lines[index + 1])
      rows.append(Array(zip(ticks, labels)))
      #expect(ticks.count == labels.count)
    }
    return rows
  }

  @Test(arguments: [
    ("PARIS", 20, 1), ("PARIS", 60, 1),
    (Array(repeating: "PARIS", count: 35).joined(separator: " "), 10, 4),
  ])
  func theTimeAxisIsLabelledInSecondsAtAStepOfOneTwoOrFive(text: String, wpm: Int, rows: Int) throws
  {
    let picture = TraceSVG(try tracedEdges(text, wpm: wpm))
    let axes = axes(picture.text)
    #expect(axes.count == rows)
    for axis in axes {
      #expect(axis.count >= 5)
      let seconds = axis.map { Double($0.label.text.dropLast(2)) }
      #expect(axis.allSatisfy { $0.label.text.hasSuffix(" s") })
      #expect(seconds.first == 0)
      try #require(seconds.count >= 2)
      let step: Double = (seconds[1] ?? 0) - (seconds[0] ?? 0)
      var power = step
      while power >= 10 { power /= 10 }
      while power < 1 { power *= 10 }
      #expect([1, 2, 5].contains { abs(power - $0) < 1e-6 }, "step \(step)")
      #expect(step * picture.scale >= 60)
      for (index, (tick, label)) in axis.enumerated() {
        #expect(abs(label.x - tick) < 0.01)
        let expected = Double(index) * step
        #expect(abs((seconds[index] ?? -1) - expected) < 1e-6, "\(label.text)")
        #expect(abs(tick - TraceSVG.left - expected * picture.scale) <= 0.06, "\(label.text)")
      }
    }
  }

  @Test(arguments: [false, true])
  func aOneRowPictureIsAsTallAsWhatItHolds(isFrames: Bool) throws {
    let trace: ReceiveTrace
    if isFrames {
      let scene = SyntheticScene()
      let reading = MorseReading(
        receiver: MorseReceiver(),
        light: LightReceiver(frameInterval: .seconds(1 / scene.framesPerSecond)))
      trace = traced(
        scene.frames(showing: try sentEdges("PARIS", wpm: 15)).map { .frame($0) },
        reading: reading)
      #expect(trace.still != nil)
    } else {
      trace = try tracedEdges("PARIS", wpm: 20)
    }
    let picture = TraceSVG(trace)
    let svg = picture.text
    #expect(picture.rows == 1)
    let labels = pictureLabels(in: svg)
    // The legend's last line, and what comes first under it: a row's label or its level band.
    let legend = try #require(labels.first { $0.text == "threshold" })
    let row = try #require(
      svg.split(separator: "\n").filter { $0.hasSuffix(")\">") }.compactMap(translation).first {
        $0.x == TraceSVG.left
      })
    let firstUnder = labels.filter { $0.top > legend.bottom }.map(\.top).min() ?? .infinity
    let gap = min(firstUnder, row.y + TraceSVG.levelBottom - 30) - legend.bottom
    #expect(gap >= 0 && gap <= 20, "\(gap) px between the legend and the row")
    let height = try #require(pictureHeight(svg))
    let lowest = labels.map(\.bottom).max() ?? 0
    #expect(
      height - lowest >= 0 && height - lowest <= 12, "\(height - lowest) px under the last label")
  }
}
