/// The sound of Morse: a sine tone keyed on and off, each edge shaped by a raised cosine so
/// that nothing clicks (a key's edge as a step would splatter across the band), as 16-bit
/// samples at a fixed rate.
///
/// Times are absolute (seconds from the start of the sound), and each sample's index is its
/// time times the rate: rounding never adds up, however long the sound. The phase is the
/// sample's index too, so the tone is one continuous sine, its marks cut from it.
public struct ToneSynthesizer: Sendable {
  /// The tone's pitch and the sound's form.
  public struct Settings: Sendable, Hashable {
    /// The tone's pitch, in whole Hz (so that a second holds whole periods, and the phase of
    /// a sample is its index within the second).
    public var frequency: Int
    /// Samples a second.
    public var sampleRate: Int
    /// How long each edge's rise or fall lasts, in seconds: 5 ms, as libcw shapes its tone,
    /// or half the shortest element if that is shorter.
    public var ramp: Double
    /// The tone's peak, as a share of full scale (a little below, for players that clip).
    public var amplitude: Double

    /// 600 Hz at 48 000 samples a second, 5 ms edges, at 0.7 of full scale.
    public init(
      frequency: Int = 600, sampleRate: Int = 48_000, ramp: Double = 0.005,
      amplitude: Double = 0.7
    ) {
      self.frequency = frequency
      self.sampleRate = sampleRate
      self.ramp = ramp
      self.amplitude = amplitude
    }

    /// The edges' length for marks as short as `shortest` seconds: `ramp`, or half of it.
    public func ramp(forShortest shortest: Double) -> Double { min(ramp, shortest / 2) }
  }

  public let settings: Settings
  /// The samples made so far: the index of the next.
  public private(set) var position = 0

  public init(settings: Settings) {
    self.settings = settings
  }

  /// The index of the sample at `seconds`.
  public func sample(at seconds: Double) -> Int {
    Int((seconds * Double(settings.sampleRate)).rounded())
  }

  /// Silence from where the sound is up to `seconds` (nothing if it is there already).
  public mutating func silence(until seconds: Double) -> [Int16] {
    let end = sample(at: seconds)
    guard end > position else { return [] }
    defer { position = end }
    return [Int16](repeating: 0, count: end - position)
  }

  /// Silence up to `start`, then the tone keyed from `start` to `end`: it rises over the
  /// ramp from `start` and falls over the ramp from `end`, so that it is at half strength
  /// a half ramp after each edge and each mark keeps its length.
  public mutating func mark(from start: Double, to end: Double, ramp: Double) -> [Int16] {
    var samples = silence(until: start)
    let first = max(position, sample(at: start))
    let falls = sample(at: end)
    let last = sample(at: end + ramp)
    let rampSamples = max(1, sample(at: ramp))
    let rate = Double(settings.sampleRate)
    let step = 2 * Double.pi * Double(settings.frequency) / rate
    let peak = settings.amplitude * Double(Int16.max)
    samples.reserveCapacity(samples.count + max(0, last - first))
    for index in first..<max(first, last) {
      let sinceStart = index - sample(at: start)
      let sinceFall = index - falls
      var envelope = 1.0
      if sinceStart < rampSamples { envelope = Self.raisedCosine(sinceStart, of: rampSamples) }
      if sinceFall >= 0 {
        envelope = min(envelope, 1 - Self.raisedCosine(sinceFall, of: rampSamples))
      }
      // The phase from the sample's index alone (modulo a period's samples, for precision).
      let value = peak * envelope * Self.sine(step * Double(index % Int(rate)))
      samples.append(Int16(value.rounded()))
    }
    position = max(position, last)
    return samples
  }

  /// sin(`x`), within 1e-9: this module is pure Swift, which has no sine of its own. `x` is
  /// brought into [-π/2, π/2] (sin(π - x) = sin x), where the Taylor series to x^19 is that
  /// close.
  static func sine(_ x: Double) -> Double {
    let twoPi = 2 * Double.pi
    var y = x - twoPi * (x / twoPi).rounded()  // [-π, π]
    if y > Double.pi / 2 { y = Double.pi - y }
    if y < -Double.pi / 2 { y = -Double.pi - y }
    let y2 = y * y
    var term = y
    var sum = y
    for n in stride(from: 2, through: 18, by: 2) {
      term *= -y2 / Double(n * (n + 1))
      sum += term
    }
    return sum
  }

  /// 0 at `index` 0, 1 at `count`, along half a cosine's period.
  static func raisedCosine(_ index: Int, of count: Int) -> Double {
    let x = Double(min(max(index, 0), count)) / Double(count)
    return 0.5 - 0.5 * sine(Double.pi * x + Double.pi / 2)
  }
}
