/// Where a spot is on the grid: its blocks, the blocks around one, its rectangle in pixels.
extension BlinkMap {
  /// `block` and the blocks next to it.
  func blocks(around block: Int) -> [Int] {
    let (row, column) = (block / columns, block % columns)
    return (max(row - 1, 0)...min(row + 1, rows - 1)).flatMap { r in
      (max(column - 1, 0)...min(column + 1, columns - 1)).map { r * columns + $0 }
    }
  }

  /// The blocks up to two from `spot`'s centre, all alike: where a light that strayed from
  /// it is to be looked for.
  func neighbourhood(of spot: Spot) -> Spot {
    let (row, column) = (spot.centre / columns, spot.centre % columns)
    let blocks = (max(row - 2, 0)...min(row + 2, rows - 1)).flatMap { r in
      (max(column - 2, 0)...min(column + 2, columns - 1)).map { r * columns + $0 }
    }
    return Spot(centre: spot.centre, weights: blocks.map { ($0, 1.0) }, isSteadied: spot.isSteadied)
  }

  /// The block up to two from `spot`'s centre that brightened most from `framesAgo` frames
  /// before the last to `untilAgo` frames before it (less the picture's change, for a
  /// steadied spot), by how much, and how much the centre did (in levels): where a light
  /// that moves was at the end of a mark.
  func brightened(near spot: Spot, since framesAgo: Int, until untilAgo: Int = 0)
    -> (block: Int, by: Double, centre: Double)?
  {
    guard framesAgo > untilAgo, untilAgo >= 0, framesAgo < count else { return nil }
    let last = (next + capacity - 1 - untilAgo) % capacity
    let then = (next + capacity - 1 - framesAgo) % capacity
    func change(_ block: Int) -> Int {
      Int(means[block * capacity + last]) - offset(last, spot.isSteadied)
        - Int(means[block * capacity + then]) + offset(then, spot.isSteadied)
    }
    let (row, column) = (spot.centre / columns, spot.centre % columns)
    var best: (block: Int, change: Int)?
    for r in max(row - 2, 0)...min(row + 2, rows - 1) {
      for c in max(column - 2, 0)...min(column + 2, columns - 1) {
        let block = r * columns + c
        let change = change(block)
        if change > best?.change ?? .min { best = (block, change) }
      }
    }
    return best.map { ($0.block, Double($0.change) / 256, Double(change(spot.centre)) / 256) }
  }

  /// How many blocks apart two blocks are, across or down, whichever is more.
  func distance(_ one: Int, _ other: Int) -> Int {
    max(abs(one / columns - other / columns), abs(one % columns - other % columns))
  }

  /// The spot's bounding rectangle in pixels.
  func pixels(of spot: Spot) -> LightRegion? {
    let width = columns
    let spotRows = spot.weights.map { $0.block / width }
    let spotColumns = spot.weights.map { $0.block % width }
    let (left, top) = (spotColumns.min() ?? 0, spotRows.min() ?? 0)
    return LightRegion(
      x: left * blockSize, y: top * blockSize,
      width: ((spotColumns.max() ?? 0) - left + 1) * blockSize,
      height: ((spotRows.max() ?? 0) - top + 1) * blockSize)
  }

  /// How much higher `values` are where `isOnAt` says on than where it says off (0 unless
  /// both are there).
  static func response(
    of values: some Collection<Double>, following isOnAt: some Collection<Bool>
  ) -> Double {
    var (on, off, onCount, offCount) = (0.0, 0.0, 0.0, 0.0)
    for (value, isOn) in zip(values, isOnAt) {
      if isOn {
        on += value
        onCount += 1
      } else {
        off += value
        offCount += 1
      }
    }
    guard onCount > 0, offCount > 0 else { return 0 }
    return on / onCount - off / offCount
  }
}
