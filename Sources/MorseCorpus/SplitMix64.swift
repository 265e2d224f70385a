/// SplitMix64: a small deterministic generator, so that every run draws the same numbers
/// (the scene's noise and texture, a sender's jitter, fuzzed text) and a failure replays.
public struct SplitMix64: RandomNumberGenerator {
  public var state: UInt64

  /// A generator from `state`.
  public init(state: UInt64) {
    self.state = state
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// About normally distributed, mean 0 and deviation 1 (the sum of four uniforms).
  public mutating func gaussian() -> Double {
    var total = 0.0
    for _ in 0..<4 { total += Double(next() >> 11) / Double(1 << 53) }
    return (total - 2) * 1.732
  }
}
