import Testing

@testable import MorseSound

@Suite("ToneSynthesizer")
struct ToneSynthesizerTests {
  @Test func theSineIsTheSineEverywhere() {
    // Known values, and the identities the range reduction relies on.
    #expect(abs(ToneSynthesizer.sine(0)) < 1e-12)
    #expect(abs(ToneSynthesizer.sine(Double.pi / 2) - 1) < 1e-9)
    #expect(abs(ToneSynthesizer.sine(Double.pi / 6) - 0.5) < 1e-9)
    for k in -50...50 {
      let x = Double(k) * 0.731
      let s = ToneSynthesizer.sine(x)
      let c = ToneSynthesizer.sine(x + Double.pi / 2)
      #expect(abs(s * s + c * c - 1) < 1e-9, "x \(x)")
      #expect(abs(ToneSynthesizer.sine(-x) + s) < 1e-9)
      #expect(abs(ToneSynthesizer.sine(x + 2 * Double.pi) - s) < 1e-9)
    }
  }

  @Test(arguments: [(600, 48_000), (700, 44_100), (450, 8_000)])
  func aMarkIsSilentThenShapedAndHalfStrengthAHalfRampAfterEachEdge(frequency: Int, rate: Int) {
    var synthesizer = ToneSynthesizer(
      settings: .init(frequency: frequency, sampleRate: rate, ramp: 0.005, amplitude: 0.5))
    let samples = synthesizer.mark(from: 0.1, to: 0.16, ramp: 0.005)
    // Silence to 100 ms, the mark from 100 ms to 165 ms (its fall included).
    #expect(samples.count == synthesizer.sample(at: 0.165))
    #expect(samples[..<synthesizer.sample(at: 0.1)].allSatisfy { $0 == 0 })
    // No click: no step between samples larger than the steepest the full tone takes.
    let peak = 0.5 * Double(Int16.max)
    let steepest = peak * 2 * Double.pi * Double(frequency) / Double(rate) * 1.01
    for index in samples.indices.dropFirst() {
      #expect(abs(Double(samples[index]) - Double(samples[index - 1])) <= steepest + 1)
    }
    // Ends at nothing: the last samples are within the ramp's last step of zero.
    #expect(abs(Double(samples.last!)) < peak * 0.01)
    // Full strength between the ramps: the peak reached within each period.
    let steady = samples[synthesizer.sample(at: 0.11)..<synthesizer.sample(at: 0.15)]
    #expect(abs(Double(steady.map { abs(Int($0)) }.max()!) - peak) < peak * 0.02)
  }

  @Test func marksAtAbsoluteTimesNeverDriftHoweverMany() {
    var synthesizer = ToneSynthesizer(settings: .init(frequency: 600, sampleRate: 44_100))
    var count = 0
    // 2 000 marks of 1/30 s every 0.1 s: each ends exactly where its time says.
    for k in 0..<2_000 {
      let start = Double(k) * 0.1
      count += synthesizer.mark(from: start, to: start + 1.0 / 30, ramp: 0.005).count
      #expect(count == synthesizer.sample(at: start + 1.0 / 30 + 0.005))
    }
    #expect(synthesizer.position == Int((199.9 + 1.0 / 30 + 0.005) * 44_100 + 0.5))
  }

  @Test func theRampIsHalfTheShortestMarkWhenThatIsShorter() {
    let settings = ToneSynthesizer.Settings()
    #expect(settings.ramp(forShortest: 0.06) == 0.005)
    #expect(settings.ramp(forShortest: 0.004) == 0.002)
  }

  @Test func theHeaderIsA16BitMonoPCMWAV() {
    let header = WAVHeader.bytes(sampleRate: 48_000, dataBytes: 96_000)
    #expect(header.count == WAVHeader.size)
    #expect(Array(header[0..<4]) == Array("RIFF".utf8))
    #expect(Array(header[8..<16]) == Array("WAVEfmt ".utf8))
    #expect(Array(header[4..<8]) == [0x24, 0x77, 0x01, 0x00])  // 96 036
    #expect(Array(header[20..<24]) == [1, 0, 1, 0])  // PCM, one channel
    #expect(Array(header[24..<28]) == [0x80, 0xBB, 0, 0])  // 48 000
    #expect(Array(header[34..<36]) == [16, 0])
    #expect(Array(header[36..<40]) == Array("data".utf8))
    #expect(Array(header[40..<44]) == [0x00, 0x77, 0x01, 0x00])
    // A stream: the largest sizes; patched afterwards where the file can be.
    let stream = WAVHeader.bytes(sampleRate: 8_000, dataBytes: nil)
    #expect(Array(stream[40..<44]) == [0xFF, 0xFF, 0xFF, 0xFF])
    for (offset, bytes) in WAVHeader.sizes(dataBytes: 96_000) {
      #expect(Array(header[offset..<offset + 4]) == bytes)
    }
    #expect(WAVHeader.bytes(of: [1, -2]) == [1, 0, 0xFE, 0xFF])
  }
}
