/// Where a light is on a `BlinkMap`: the block it blinks most in, and the blocks it lights,
/// each weighted by how much it lights it, so the blocks it lights most count most and
/// those it does not light (a background that drifts or moves) hardly at all.
struct Spot: Hashable {
  /// The block it blinks most in.
  let centre: Int
  /// The blocks and their weights.
  let weights: [(block: Int, weight: Double)]
  /// Whether its blocks are read less the changes of the whole picture (it was found so).
  let isSteadied: Bool

  static func == (left: Spot, right: Spot) -> Bool {
    left.centre == right.centre && left.weights.map(\.block) == right.weights.map(\.block)
  }

  func hash(into hasher: inout Hasher) { hasher.combine(centre) }

  /// Whether the two share a block.
  func overlaps(_ other: Spot) -> Bool {
    !Set(weights.map(\.block)).isDisjoint(with: other.weights.map(\.block))
  }
}
