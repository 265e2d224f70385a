import Instants

/// The last few seconds of a picture, coarsely: the mean luma of each block of a grid over
/// the frame (all its pixels: a small sharp light would alias on a sampled grid as it
/// moves), frame by frame, from which the light
/// receiver finds the spot that blinks Morse and replays what it sent before it was found.
struct BlinkMap {
  /// Pixels on a block's side.
  let blockSize: Int
  /// Blocks in a row of the grid.
  let columns: Int
  /// Rows of blocks.
  let rows: Int
  /// Frames kept.
  let capacity: Int
  /// Frames in a second.
  let reach: Int
  /// Each block's means, block after block, `capacity` a block (a ring), as mean × 256.
  private(set) var means: [UInt16]
  /// The frames' times, in the same ring.
  private var times: [MonotonicInstant]
  /// How much the whole picture has changed by each frame (the median change of all blocks
  /// from each frame to the next, added up, as mean × 256), in the same ring: flicker of the
  /// room's light, an exposure that moves, which every block shows and which is no light's
  /// blinking nor any block's noise. A spot found with the picture's changes taken out
  /// (`Spot.isSteadied`) reads its blocks less it.
  private(set) var offsets: [Int]
  /// Where the next frame goes.
  private(set) var next = 0
  /// Frames kept so far (at most `capacity`).
  private(set) var count = 0

  /// Whether each block's mean is kept as the picture's negative (marks are dark).
  private let isNegative: Bool

  /// A grid for frames of `width` by `height` pixels, of about 80 blocks across (blocks of
  /// 8 pixels or more), keeping `capacity` frames, `reach` of them a second; `isNegative`,
  /// the picture's negative.
  init(width: Int, height: Int, capacity: Int, reach: Int, isNegative: Bool = false) {
    self.reach = reach
    self.isNegative = isNegative
    var size = max(8, (max(width / 80, height / 60) + 1) & ~1)
    size = min(size, max(2, min(width, height) & ~1))
    blockSize = size
    columns = max(width / size, 1)
    rows = max(height / size, 1)
    self.capacity = max(capacity, 2)
    means = Array(repeating: 0, count: columns * rows * self.capacity)
    times = Array(repeating: .origin, count: self.capacity)
    offsets = Array(repeating: 0, count: self.capacity)
  }

  /// Adds a frame of the size it was made for.
  mutating func add(_ frame: LightFrame) {
    let slot = next
    let size = blockSize
    let step = 1
    let samples = size * size
    let columns = columns
    let capacity = capacity
    let width = frame.width
    let blockHeight = min(size, frame.height)
    let blockWidth = min(size, frame.width)
    // The brightest a block's mean can be, as mean × 256: the negative is taken from it.
    let white = 255 * 256
    let isNegative = isNegative
    var sums = [Int](repeating: 0, count: columns)
    frame.luma.withUnsafeBufferPointer { luma in
      means.withUnsafeMutableBufferPointer { means in
        for blockRow in 0..<rows {
          for column in 0..<columns { sums[column] = 0 }
          for row in stride(from: blockRow * size, to: blockRow * size + blockHeight, by: step) {
            let rowStart = row * width
            for column in 0..<columns {
              let start = rowStart + column * size
              var total = 0
              for index in stride(from: start, to: start + blockWidth, by: step) {
                total += Int(luma[index])
              }
              sums[column] += total
            }
          }
          for column in 0..<columns {
            let block = blockRow * columns + column
            let mean = min(sums[column] * 256 / samples, white)
            means[block * capacity + slot] = UInt16(isNegative ? white - mean : mean)
          }
        }
      }
    }
    times[slot] = frame.time
    let previous = (slot + capacity - 1) % capacity
    offsets[slot] = count == 0 ? 0 : offsets[previous] + medianChange(to: slot)
    next = (slot + 1) % capacity
    count = min(count + 1, capacity)
  }

  /// The median of every block's change from the frame before `slot` to it, as mean × 256,
  /// exactly (a median rounded to a step would add up to a drift over the frames kept):
  /// found in a histogram of whole levels, then among the changes of its level alone.
  private func medianChange(to slot: Int) -> Int {
    let previous = (slot + capacity - 1) % capacity
    let (capacity, blockCount) = (capacity, columns * rows)
    return means.withUnsafeBufferPointer { means in
      func change(_ block: Int) -> Int {
        Int(means[block * capacity + slot]) - Int(means[block * capacity + previous])
      }
      // Whole levels from -256 to 255 (a change of a block's mean is within ±255 levels).
      var counts = [Int](repeating: 0, count: 512)
      for block in 0..<blockCount { counts[(change(block) >> 8) + 256] += 1 }
      var level = 0
      var below = 0
      while below + counts[level] <= blockCount / 2 {
        below += counts[level]
        level += 1
      }
      var inLevel: [Int] = []
      inLevel.reserveCapacity(counts[level])
      for block in 0..<blockCount where (change(block) >> 8) + 256 == level {
        inLevel.append(change(block))
      }
      inLevel.sort()
      return inLevel[blockCount / 2 - below]
    }
  }

  /// The ring slots of the frames kept, oldest first.
  private var slots: [Int] {
    let used = min(count, window)
    return (0..<used).map { (next - used + $0 + capacity) % capacity }
  }

  /// How many of the last frames kept are looked at (all, unless set lower): a light not yet
  /// found is looked for over all of them (a slow lamp's dot and dash take that long), one
  /// found is followed over fewer, so that it is soon seen to have stopped or moved.
  var window = Int.max

  /// The times of the frames kept, oldest first.
  var frameTimes: [MonotonicInstant] { slots.map { times[$0] } }

  /// The spot's level in each frame kept, oldest first: the weighted mean luma of its
  /// blocks.
  func levels(of spot: Spot) -> [Double] {
    slots.map { level(of: spot, slot: $0) }
  }

  /// How much the spot's level changed from the frame before the last to the last.
  func lastChange(of spot: Spot) -> Double {
    guard count >= 2 else { return 0 }
    let last = (next + capacity - 1) % capacity
    return level(of: spot, slot: last) - level(of: spot, slot: (last + capacity - 1) % capacity)
  }

  private func level(of spot: Spot, slot: Int) -> Double {
    var total = 0.0
    var weights = 0.0
    for (block, weight) in spot.weights {
      total += weight * Double(Int(means[block * capacity + slot]) - offset(slot, spot.isSteadied))
      weights += weight
    }
    return total / max(weights, 1e-9) / 256
  }

  /// One block's means, oldest first (less the picture's changes, `steadied`).
  private func values(ofBlock block: Int, steadied: Bool) -> [Double] {
    slots.map { Double(Int(means[block * capacity + $0]) - offset($0, steadied)) / 256 }
  }

  /// Whether the whole picture changed, by a level or more, over the frames kept.
  private var hasChangedWhole: Bool {
    let kept = slots.map { offsets[$0] }
    return (kept.max() ?? 0) - (kept.min() ?? 0) >= 256
  }

  /// What to take from a mean in `slot`: the picture's changes, `steadied`, else nothing.
  func offset(_ slot: Int, _ steadied: Bool) -> Int { steadied ? offsets[slot] : 0 }

  /// A spot that blinks like Morse, what its levels show, and its score (sharp edges times
  /// contrast over noise).
  typealias Candidate = (spot: Spot, analysis: BlinkAnalysis, score: Double)

  /// What a look over the frames kept found: the spot that blinks most like Morse, if any,
  /// and how strong the strongest blinking not yet like Morse is.
  struct Sighting {
    /// The spot that blinks most like Morse.
    var best: Candidate?
    /// The score of the strongest blinking that is not (yet) Morse-like: marks of one length
    /// so far, or upside down (0 if none).
    var strongestUnproven = 0.0
  }

  /// The spot that blinks most like Morse, with what its levels show; nil if none does.
  ///
  /// Looked for twice: in the picture as it is, and with the changes of the whole picture
  /// taken out (flicker of the room's light hides a small light's blinking under noise as
  /// large); the second is taken when it scores half as much again as the first (or the
  /// first finds none), so a light that fills the picture, whose blinking is the whole
  /// picture's change, is still found.
  func find() -> Sighting {
    guard min(count, window) >= 4 else { return Sighting() }
    let plain = find(steadied: false)
    // Not where the picture holds still: the same search again would find the same.
    guard hasChangedWhole else { return plain }
    let steadied = find(steadied: true)
    let unproven = max(plain.strongestUnproven, steadied.strongestUnproven)
    guard let best = steadied.best, best.score > 1.5 * (plain.best?.score ?? 0) else {
      return Sighting(best: plain.best, strongestUnproven: unproven)
    }
    return Sighting(best: best, strongestUnproven: unproven)
  }

  /// The best spot, `steadied` or not, and its score.
  ///
  /// A block is a candidate when its range is well above the picture's noise (sixteen times
  /// the median change between frames of all blocks, at least 8 levels) and it is
  /// Morse-like (`BlinkAnalysis`), alone or with the eight around it summed; the best has
  /// the most sharp edges times contrast over noise. The
  /// spot is that block and those around it that brighten with it (`Spot`).
  private func find(steadied: Bool) -> Sighting {
    let offsets = steadied ? offsets : Array(repeating: 0, count: capacity)
    let slots = slots
    let (ranges, noise) = rangesAndNoise(slots: slots, offsets: offsets)
    let threshold = max(4, 8 * noise)
    var best: (block: Int, score: Double, analysis: BlinkAnalysis)?
    var sighting = Sighting()
    // Sharp changes (over half the threshold within two frames), counted cheaply first: a
    // block with fewer than three is not looked at closer.
    let step = Int(threshold * 256 / 2)
    for block in 0..<columns * rows where ranges[block] >= threshold {
      let jumps = sharpChanges(of: block, slots: slots, offsets: offsets, step: step)
      guard jumps >= 3,
        let candidate = bestAnalysis(around: block, threshold: threshold, steadied: steadied),
        candidate.score > min(best?.score ?? 0, sighting.strongestUnproven)
      else { continue }
      guard candidate.analysis.isMorseLike else {
        sighting.strongestUnproven = max(sighting.strongestUnproven, candidate.score)
        continue
      }
      guard candidate.score > best?.score ?? 0,
        !steadied || brightensItself(around: block, following: candidate.analysis)
      else { continue }
      best = (block, candidate.score, candidate.analysis)
    }
    guard let best else { return sighting }
    let spot = spot(
      around: best.block, following: best.analysis.isOnAt, isMoving: false, steadied: steadied)
    sighting.best = (spot, BlinkAnalysis(levels(of: spot), reach: reach), best.score)
    return sighting
  }

  /// The range of every block over the frames kept (`slots`), in levels, and the picture's
  /// noise: the median change between frames of all blocks.
  private func rangesAndNoise(slots: [Int], offsets: [Int]) -> (ranges: [Double], noise: Double) {
    let blockCount = columns * rows
    var ranges = [Double](repeating: 0, count: blockCount)
    // The changes between frames of every block, in sixteenths of a level (the last bin: 64
    // levels or more): their median is the picture's noise — most blocks in most frames
    // are steady, even when a light fills the whole picture.
    var changes = [Int](repeating: 0, count: 1024)
    means.withUnsafeBufferPointer { means in
      changes.withUnsafeMutableBufferPointer { changes in
        for block in 0..<blockCount {
          let base = block * capacity
          var previous = Int(means[base + slots[0]]) - offsets[slots[0]]
          var lowest = previous
          var highest = previous
          for slot in slots.dropFirst() {
            let value = Int(means[base + slot]) - offsets[slot]
            changes[min(abs(value - previous) >> 4, 1023)] += 1
            lowest = min(lowest, value)
            highest = max(highest, value)
            previous = value
          }
          ranges[block] = Double(highest - lowest) / 256
        }
      }
    }
    var median = 0
    var counted = 0
    let half = blockCount * (slots.count - 1) / 2
    while median < 1023 && counted + changes[median] <= half {
      counted += changes[median]
      median += 1
    }
    return (ranges, (Double(median) + 0.5) / 16)
  }

  /// How often `block` changes by `step` or more within two of the frames kept (`slots`), or
  /// (a slow light's rise, once for each) within `BlinkAnalysis.slowestEdge`.
  private func sharpChanges(of block: Int, slots: [Int], offsets: [Int], step: Int) -> Int {
    let base = block * capacity
    let value = { (index: Int) in Int(means[base + slots[index]]) - offsets[slots[index]] }
    var (jumps, slow) = (0, 0)
    let span = BlinkAnalysis.slowestEdge
    var lastSlow = -span
    for index in 2..<slots.count {
      if abs(value(index) - value(index - 2)) >= step {
        jumps += 1
      } else if index >= span, index - lastSlow >= span,
        abs(value(index) - value(index - span)) >= step
      {
        slow += 1
        lastSlow = index
      }
    }
    return jumps + slow
  }

  /// Whether the blocks around `block` are brighter, as they are, over the frames `analysis`
  /// says are on than over the others (by a quarter of its contrast at least). With the
  /// picture's change taken out, a light must still brighten by itself: when that change is
  /// the message (a screen or a torch filling the frame, its glow over the room, the exposure
  /// hunting after it), a block lit less than the rest, or not at all (a black bar, a dark
  /// corner), shows its negative, and dark would be read as marks.
  private func brightensItself(around block: Int, following analysis: BlinkAnalysis) -> Bool {
    let around = blocks(around: block)
    let levels = sums(of: around, steadied: false).map { $0 / Double(around.count) }
    let response = Self.response(
      of: levels.suffix(analysis.isOnAt.count), following: analysis.isOnAt)
    return response >= analysis.contrast / Double(around.count) / 4
  }

  /// The better analysis of `block` alone and of the blocks around it, with its score
  /// (sharp edges times contrast over noise), Morse-like ones first; nil if neither blinks
  /// over twice the noise.
  private func bestAnalysis(around block: Int, threshold: Double, steadied: Bool)
    -> (score: Double, analysis: BlinkAnalysis)?
  {
    var best: (score: Double, analysis: BlinkAnalysis)?
    // The block alone (a small light standing still), and the nine around it summed (a
    // light moving among them), each against its own noise (three times as much for nine).
    let around = blocks(around: block)
    for (blocks, noise) in [([block], threshold), (around, 3 * threshold)] {
      let analysis = BlinkAnalysis(sums(of: blocks, steadied: steadied), reach: reach)
      // Twice the noise threshold: at the edge of a light's glow, noise makes marks of
      // any length.
      guard analysis.contrast >= 2 * noise else { continue }
      let score = Double(analysis.edges) * analysis.contrast / noise
      let isBetter =
        best.map { best in
          let (isMorse, wasMorse) = (analysis.isMorseLike, best.analysis.isMorseLike)
          return isMorse != wasMorse ? isMorse : score > best.score
        } ?? true
      if isBetter { best = (score, analysis) }
    }
    return best
  }

  /// The summed means of `blocks` in each frame kept, oldest first.
  private func sums(of blocks: [Int], steadied: Bool) -> [Double] {
    slots.map { slot in
      var total = 0
      for block in blocks { total += Int(means[block * capacity + slot]) - offset(slot, steadied) }
      return Double(total) / 256
    }
  }

  /// The blocks up to two from `centre` that brighten with the light — over the last frames
  /// `isOnAt` says are on, by at least a sixth of the most any does — and those next to
  /// them that brighten by a twentieth (all of those next to them, `isMoving`: a light that
  /// moves is not lost before the next look). Its centre is the block that brightens most,
  /// so a light that moves is followed.
  func spot(
    around centre: Int, following isOnAt: [Bool], isMoving: Bool = true, steadied: Bool
  ) -> Spot {
    let (row, column) = (centre / columns, centre % columns)
    var weights: [(block: Int, weight: Double)] = []
    for r in max(row - 2, 0)...min(row + 2, rows - 1) {
      for c in max(column - 2, 0)...min(column + 2, columns - 1) {
        let block = r * columns + c
        let values = values(ofBlock: block, steadied: steadied).suffix(isOnAt.count)
        let response = Self.response(of: values, following: isOnAt.suffix(values.count))
        if response > 0 { weights.append((block, response)) }
      }
    }
    let strongest = weights.max { $0.weight < $1.weight }?.weight ?? 0
    let lit = Set(weights.filter { $0.weight >= strongest / 6 }.map(\.block))
    // With the blocks next to them that it lit a little (it moved there, or is moving
    // there), all alike: the light's sum is the same wherever in the spot it is.
    let touched = weights.filter { isMoving || $0.weight >= strongest / 20 }.map(\.block).filter {
      block in
      lit.contains {
        abs($0 / columns - block / columns) <= 1 && abs($0 % columns - block % columns) <= 1
      }
    }
    return Spot(
      centre: weights.max { $0.weight < $1.weight }?.block ?? centre,
      weights: Set(touched).union(lit).sorted().map { ($0, 1.0) }, isSteadied: steadied)
  }

  /// How much brighter the spot is over the last frames `isOnAt` says are on than over the
  /// others.
  func response(of spot: Spot, following isOnAt: [Bool]) -> Double {
    let levels = levels(of: spot).suffix(isOnAt.count)
    return Self.response(of: levels, following: isOnAt.suffix(levels.count))
  }
}
