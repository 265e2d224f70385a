/// How one spot's brightness changed over a stretch of frames: whether it blinks like Morse.
///
/// The level is split at the middle of its lowest and highest (each held two frames, so
/// one noisy frame does not count). A change across that
/// middle counts as an edge only when it is sharp — it covers half the range within three
/// frames, or, between two runs that each last longer, within half the shorter run (at most
/// `slowestEdge` frames: a lamp whose light takes a fifth of a second to rise, keyed slowly)
/// — so a slow drift of exposure, a shaking camera's gradient or a flickering lamp's
/// ripple does not count. Morse has marks of two lengths (dots and dashes, 1:3); a
/// heartbeat LED, a blinking power LED or a timer has marks all alike, so a spot is
/// Morse-like only when its longest whole mark is at least twice its shortest (of those at
/// full strength).
struct BlinkAnalysis {
  /// The level while off, over the lowest near it: the lowest that lasted two frames.
  let low: Double
  /// The level while on, over the lowest near it: the highest that lasted two frames (a
  /// dash lasts longer).
  let high: Double
  /// Sharp edges seen.
  let edges: Int
  /// Whether most of them took over three frames to cross half the range: a slow light (a
  /// filament, a lamp through haze), whose frames on the way up or down are not its levels.
  let isSlow: Bool
  /// Whether it has whole marks of two lengths (one at least twice another), three or more
  /// at full strength.
  let hasMarksOfTwoLengths: Bool
  /// The median size of the sharp edges: the contrast, free of a drift over the frames.
  let step: Double
  /// Whether each frame was over the middle.
  let isOnAt: [Bool]

  /// `high - low`.
  var contrast: Double { high - low }

  /// Whether it blinks like Morse the right way up: marks of two lengths, not dark ones.
  var isMorseLike: Bool { hasMarksOfTwoLengths && !looksInverted }

  /// Whether it reads like Morse upside down, dark as marks: a wall that the camera's
  /// exposure darkens while a torch beside it is on. Morse's longest runs are dark (letter and
  /// word gaps, pauses), so the longest whole run lit (not cut by either end of the frames,
  /// where a light may have been on before) a quarter longer than the longest dark one (cut
  /// or not: a lead-in, a pause now) says so. A lamp whose marks are long and its gaps short
  /// is not taken for that once its lead-in or a pause after a word is in view.
  var looksInverted: Bool {
    var (longestOn, longestOff) = (0, 0)
    var start = 0
    for index in isOnAt.indices
    where index == isOnAt.count - 1 || isOnAt[index + 1] != isOnAt[index] {
      let length = index - start + 1
      if !isOnAt[index] {
        longestOff = max(longestOff, length)
      } else if start > 0 && index < isOnAt.count - 1 {
        longestOn = max(longestOn, length)
      }
      start = index + 1
    }
    return 4 * longestOn >= 5 * longestOff && longestOff > 0
  }

  /// Analyses `values` (oldest first), each taken over the lowest within `reach` frames of
  /// it (a slow drift of the exposure taken out; a light is off at some time in any second).
  init(_ levels: [Double], reach: Int = 30) {
    let values = zip(levels, Self.lowest(levels, within: reach)).map { $0 - $1 }
    let pairs = zip(values, values.dropFirst())
    low = pairs.map { max($0, $1) }.min() ?? 0
    high = pairs.map { min($0, $1) }.max() ?? 0
    let contrast = high - low
    let middle = (low + high) / 2
    var edges = 0
    var slowEdges = 0
    var markStart: Int?
    var shortest = Double.infinity
    var longest = 0.0
    var fullMarks = 0
    var swings: [Double] = []
    isOnAt = values.map { $0 > middle }
    let runs = Self.runLengths(isOnAt)
    var isOn = values.first.map { $0 > middle } ?? false
    for index in values.indices.dropFirst() {
      let on = values[index] > middle
      guard on != isOn else { continue }
      isOn = on
      // Frames either side the swing is looked for in: two, or half the shorter run.
      let reach = min(max(min(runs[index - 1], runs[index]) / 2, 2), Self.slowestEdge)
      let before = values[max(index - reach, 0)..<index]
      let after = values[index...min(index + reach - 1, values.count - 1)]
      let value = values[index]
      let swing =
        on
        ? (after.max() ?? value) - (before.min() ?? value)
        : (before.max() ?? value) - (after.min() ?? value)
      guard contrast > 0, swing >= contrast / 2 else {
        markStart = nil
        continue
      }
      edges += 1
      // Within three frames of the crossing (two either side), or only further out.
      let near = values[max(index - 2, 0)...min(index + 1, values.count - 1)]
      if (near.max() ?? value) - (near.min() ?? value) < contrast / 2 { slowEdges += 1 }
      swings.append(swing)
      if on {
        markStart = index
      } else if let start = markStart {
        let (length, peak) = Self.mark(values, from: start, to: index, contrast: contrast)
        // Only marks at full strength: a light only partly in view of the block (moving
        // across it) makes weaker, shorter ones.
        if peak >= 0.75 {
          fullMarks += 1
          shortest = min(shortest, length)
          longest = max(longest, length)
        }
        markStart = nil
      }
    }
    self.edges = edges
    isSlow = 2 * slowEdges > edges
    step = swings.sorted().dropFirst(swings.count / 2).first ?? contrast
    hasMarksOfTwoLengths = longest >= 2 * shortest && shortest > 0 && fullMarks >= 3
  }

  /// The length in frames of the mark of `values` lit at `start` and dark again at `end`, a
  /// partly lit frame at either end counting in part, and how fully lit it was at most (1:
  /// all of `contrast`). Over the lowest level just before and after it (as far as a slow
  /// light's edge reaches): a drifting exposure does not lengthen it.
  private static func mark(_ values: [Double], from start: Int, to end: Int, contrast: Double)
    -> (length: Double, peak: Double)
  {
    let base = min(
      values[max(start - slowestEdge, 0)..<start].min() ?? values[start],
      values[end...min(end + slowestEdge, values.count - 1)].min() ?? values[end])
    var length = 0.0
    var peak = 0.0
    for value in values[max(start - 1, 0)...end] {
      let lit = min(max((value - base) / contrast, 0), 1)
      length += lit
      peak = max(peak, lit)
    }
    return (length, peak)
  }

  /// The most frames either side of a crossing that a slow light's swing is looked for in.
  static let slowestEdge = 8

  /// For each frame, the length of the run of frames on the same side that it is in.
  static func runLengths(_ isOnAt: [Bool]) -> [Int] {
    var lengths = [Int](repeating: 0, count: isOnAt.count)
    var start = 0
    for index in isOnAt.indices
    where index == isOnAt.count - 1 || isOnAt[index + 1] != isOnAt[index] {
      for frame in start...index { lengths[frame] = index - start + 1 }
      start = index + 1
    }
    return lengths
  }

  /// The lowest of `values` within `reach` of each (a sliding minimum: a queue of indices
  /// whose values rise).
  static func lowest(_ values: [Double], within reach: Int) -> [Double] {
    var result = [Double](repeating: 0, count: values.count)
    var queue: [Int] = []
    var head = 0
    var next = 0
    for index in values.indices {
      while next < values.count && next <= index + reach {
        while queue.count > head, let last = queue.last, values[last] >= values[next] {
          queue.removeLast()
        }
        queue.append(next)
        next += 1
      }
      while queue[head] < index - reach { head += 1 }
      result[index] = values[queue[head]]
    }
    return result
  }
}
