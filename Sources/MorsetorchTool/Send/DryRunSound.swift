import Instants
import LinuxSystem
import MorseCore
import MorsePlayer
import MorseSound

/// What `send --dry-run` writes: the timeline, the edges `receive --edges` reads, or the
/// sound as a WAV file.
enum DryRunOutput: Equatable {
  case timeline, edges
  /// `--wav FILE` (`-`: standard output).
  case wav(path: String)
}

/// `send --dry-run --wav FILE`: the Morse as a shaped tone (`ToneSynthesizer`) in a WAV file,
/// each element written as it begins, so that a stream's sound comes line by line and a long
/// text is never held whole. The header's sizes are known before the sound where TEXT is
/// given (`dataBytes`: a pipe gets them right too); for standard input they are put right at
/// the end where the file can be gone back in, and a pipe keeps the largest, which players
/// read to the end.
final class DryRunSound: TransmissionObserver {
  private let file: OutputFile
  private let origin: MonotonicInstant
  private let ramp: Double
  /// The silence before the first mark and after the last: a second, or a word gap if that
  /// is longer (a player starts and stops cleanly; a decoder hears the last character end).
  private let margin: Duration
  private var synthesizer: ToneSynthesizer
  private var written = 0
  private let cancellation: Cancellation
  /// The first write that failed: it ends the transmission, and is thrown by `finish`.
  private var failure: (any Error)?

  /// Writes the header to `file` at once (a path that cannot be written fails before any
  /// sound is made); `tone` Hz, edges shaped for `timing`'s shortest element; a sound that
  /// ends at `end`, if known. A failed write fails `cancellation`.
  init(
    file: OutputFile, tone: Int, timing: MorseTiming, origin: MonotonicInstant,
    end: MonotonicInstant?, cancellation: Cancellation
  ) throws {
    self.file = file
    self.origin = origin
    self.cancellation = cancellation
    let settings = ToneSynthesizer.Settings(frequency: tone)
    synthesizer = ToneSynthesizer(settings: settings)
    ramp = settings.ramp(forShortest: Self.seconds(timing.unit))
    let margin = max(.seconds(1), timing.wordGap)
    self.margin = margin
    let dataBytes = end.map { end in
      synthesizer.sample(at: Self.seconds(end - origin + margin * 2)) * 2
    }
    try file.write(WAVHeader.bytes(sampleRate: settings.sampleRate, dataBytes: dataBytes))
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
  }

  private func write(_ samples: [Int16]) {
    guard failure == nil, !samples.isEmpty else { return }
    do {
      try file.write(WAVHeader.bytes(of: samples))
      written += samples.count * 2
    } catch {
      failure = error
      cancellation.fail(error)
    }
  }

  func transmission(didBegin progress: Transmitter.Progress) {
    let step = progress.step
    guard step.kind == .dot || step.kind == .dash else { return }
    let start = Self.seconds(progress.start - origin + margin)
    write(synthesizer.mark(from: start, to: start + Self.seconds(step.duration), ramp: ramp))
  }

  /// Ends the sound at `end` and its margin of silence, and puts the sizes in the header.
  func finish(end: MonotonicInstant) throws {
    write(synthesizer.silence(until: Self.seconds(end - origin + margin * 2)))
    if let failure { throw failure }
    for (offset, bytes) in WAVHeader.sizes(dataBytes: written) {
      guard file.write(bytes, at: offset) else { return }
    }
  }
}
