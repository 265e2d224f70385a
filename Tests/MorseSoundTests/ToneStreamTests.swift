import Testing

@testable import MorseSound

/// The live tone: the same samples as the written one where elements are at least a ramp long,
/// however the stream is cut into stretches; continuous where they are shorter; a late edge
/// at the next sample.
@Suite struct ToneStreamTests {
  let settings = ToneSynthesizer.Settings(frequency: 700, sampleRate: 8000, ramp: 0.005)

  /// The written tone of marks `(start, end)` in seconds, up to `seconds`.
  private func written(_ marks: [(Double, Double)], until seconds: Double) -> [Int16] {
    var synthesizer = ToneSynthesizer(settings: settings)
    var samples: [Int16] = []
    for (start, end) in marks {
      samples += synthesizer.mark(from: start, to: end, ramp: settings.ramp)
    }
    return samples + synthesizer.silence(until: seconds)
  }

  @Test(arguments: [1, 7, 160, 4000])
  func marksAtLeastARampLongSoundAsWrittenInStretchesOfAnyLength(stretch: Int) {
    let marks = [(0.010, 0.070), (0.080, 0.260), (0.330, 0.336)]
    let expected = written(marks, until: 0.4)
    var stream = ToneStream(settings: settings)
    for (start, end) in marks {
      stream.key(true, at: Int(start * 8000))
      stream.key(false, at: Int(end * 8000))
    }
    var samples: [Int16] = []
    while samples.count < expected.count {
      samples += stream.next(min(stretch, expected.count - samples.count))
    }
    #expect(samples == expected)
    #expect(stream.isQuiet)
  }

  @Test func edgesGivenWhileItPlaysLandAtTheirSamples() {
    var stream = ToneStream(settings: settings)
    var samples = stream.next(80)
    stream.key(true, at: 80)
    samples += stream.next(480)
    stream.key(false, at: 560)
    samples += stream.next(320 - 80)
    #expect(samples == written([(0.010, 0.070)], until: 0.1))
  }

  @Test func anEdgeGivenTooLateSoundsAtTheNextSample() {
    var stream = ToneStream(settings: settings)
    _ = stream.next(100)
    stream.key(true, at: 20)
    let samples = stream.next(10)
    #expect(samples[0] == 0)  // the envelope starts at 0, at sample 100
    #expect(samples[1...].contains { $0 != 0 })
    #expect(!stream.isQuiet)
  }

  /// Elements shorter than the ramp (a 1 ms unit) turn back where the envelope is: no step
  /// between two samples larger than the full tone's between two samples.
  @Test func elementsShorterThanARampStayContinuous() {
    var stream = ToneStream(settings: settings)
    for index in 0..<40 { stream.key(index % 2 == 0, at: 100 + index * 8) }
    let samples = stream.next(800).map(Double.init)
    let peak = settings.amplitude * Double(Int16.max)
    let fullStep = peak * 2 * Double.pi * 700 / 8000
    let jumps = zip(samples, samples.dropFirst()).map { abs($1 - $0) }
    #expect(jumps.max()! <= fullStep + 1)
    #expect(samples.contains { $0 != 0 })
    #expect(samples.suffix(100).allSatisfy { $0 == 0 })
  }
}
