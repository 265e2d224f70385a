/// The sound of a key moved live (`send --sound`): the tone of `ToneSynthesizer`, made a
/// stretch of samples at a time while the key's edges come in, each at the sample it is given.
///
/// Where `ToneSynthesizer` knows each mark's end before it starts, a live key does not: the
/// envelope is a state that each sample moves one step along the raised cosine, up while the
/// key is down and down while it is up. For marks and gaps at least a ramp long the samples
/// are those of `ToneSynthesizer.mark`; a shorter one turns back where the envelope is, so
/// the sound stays continuous (no click) however short the element. The phase is the sample's
/// index, as there.
public struct ToneStream: Sendable {
  /// The tone's pitch, the rate, the ramp, the peak.
  public let settings: ToneSynthesizer.Settings
  /// The index of the next sample to make.
  public private(set) var position = 0
  /// Edges given and not yet reached, in order of their samples.
  private var pending: [(sample: Int, isOn: Bool)] = []
  /// Whether the key is down as of the last sample made.
  private var isOn = false
  /// Where the envelope is: 0 silent, `rampSamples` full.
  private var step = 0
  /// The samples a rise or a fall lasts.
  public let rampSamples: Int

  public init(settings: ToneSynthesizer.Settings) {
    self.settings = settings
    rampSamples = max(1, Int((settings.ramp * Double(settings.sampleRate)).rounded()))
  }

  /// The key goes down (`isOn`) or up at `sample`; one already made is too late, and the edge
  /// is made at the next sample instead. Edges come in order.
  public mutating func key(_ isOn: Bool, at sample: Int) {
    pending.append((max(sample, position, pending.last?.sample ?? 0), isOn))
  }

  /// Whether nothing more will sound until the key goes down again: the key is up, the
  /// envelope has fallen, and no edge is waiting.
  public var isQuiet: Bool { !isOn && step == 0 && pending.isEmpty }

  /// The next `count` samples.
  public mutating func next(_ count: Int) -> [Int16] {
    let rate = settings.sampleRate
    let angle = 2 * Double.pi * Double(settings.frequency) / Double(rate)
    let peak = settings.amplitude * Double(Int16.max)
    var samples = [Int16]()
    samples.reserveCapacity(count)
    for index in position..<(position + count) {
      while let edge = pending.first, edge.sample <= index {
        isOn = edge.isOn
        pending.removeFirst()
      }
      if step == 0 && !isOn {
        samples.append(0)
        continue
      }
      let envelope = ToneSynthesizer.raisedCosine(step, of: rampSamples)
      step = isOn ? min(step + 1, rampSamples) : max(step - 1, 0)
      let value = peak * envelope * ToneSynthesizer.sine(angle * Double(index % rate))
      samples.append(Int16(value.rounded()))
    }
    position += count
    return samples
  }
}
