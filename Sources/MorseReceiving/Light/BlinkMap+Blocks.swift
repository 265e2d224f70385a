/// Where a spot is on the grid: its blocks, the blocks around one, its rectangle in pixels.
extension BlinkMap {
  /// `block` and the blocks next to it.
  func blocks(around block: Int) -> [Int] {
    let (row, column) = (block / columns, block % columns)
    return (max(row - 1, 0)...min(row + 1, rows - 1)).flatMap { r in
      (max(column - 1, 0)...min(column + 1, columns - 1)).map { r * columns + $0 }
    }
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
