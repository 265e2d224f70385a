import DeviceContract
import Instants
import LinuxSystem
import MorseSound
import Synchronization

/// `send --sound`: the Morse as a tone through the player, keyed live.
///
/// A thread of its own writes the tone to the player two milliseconds at a time, silence
/// included, for as long as the transmission lasts: the player's clock paces it (the writer
/// blocks while the pipe and the player's buffer are full). The player takes it a period at a
/// time, so the samples written go forward in steps; a switch is keyed at the sample its time
/// falls on along the line through the tops of those steps (`SampleClock`), a stretch ahead,
/// so that each element keeps its length whatever the steps. It is heard `latency` after it
/// is made, which is what `TorchGroup` holds the other devices back by.
///
/// Unchecked: the player is written by the thread alone, and finished once the thread has
/// ended; the tone is behind a lock.
public final class SoundTorch: Torch, @unchecked Sendable {
  /// The player.
  public let player: SoundPlayer
  /// From a switch to its being heard: what the pipe and the player's buffer hold, measured
  /// once the player takes the sound.
  public private(set) var latency = Duration.zero

  private struct Writer {
    var written = 0
    var failure: SoundError?
    var isStopping = false
    /// Stop once the tone has fallen silent.
    var isDraining = false
    var hasEnded = false
  }

  private let tone: Mutex<ToneStream>
  private let clock: Mutex<SampleClock>
  private let writer = Monitor(Writer())
  private let thread = WorkerThread()
  private let cancellation = Mutex<Cancellation?>(nil)
  /// Samples written at a time.
  static let stretch = 96

  /// Starts writing silence to `player` and waits (up to `startLimit`) until it takes it; the
  /// latency is measured then. Throws what the player said if it ended first.
  public init(
    player: SoundPlayer, settings: ToneSynthesizer.Settings, startLimit: Duration = .seconds(5)
  ) throws(SoundError) {
    self.player = player
    tone = Mutex(ToneStream(settings: settings))
    clock = Mutex(SampleClock(rate: settings.sampleRate))
    let pipeSamples = player.pipeCapacity / 2
    do throws(Errno) {
      try thread.start { [self] in writeUntilStopped() }
    } catch {
      player.finish(limit: .zero)
      throw .cannotStart(program: SoundPlayer.program, errno: error)
    }
    // Taking, and for long enough that the steps it takes the sound in are known: more
    // written than the pipe holds, and as much again as a window of the sample clock.
    let deadline = MonotonicTime.now() + startLimit
    let enough = pipeSamples + settings.sampleRate * 3 / 10
    let started = writer.wait(
      until: { $0.written > enough || $0.hasEnded }, orDeadline: { _ in deadline },
      then: { $0.written > enough })
    guard started, player.exitStatus() == nil else {
      stopWriter()
      player.finish(limit: .milliseconds(200))
      let status = player.exitStatus() ?? 0
      throw started || status != 0 || !player.lastSaid.isEmpty
        ? .playerRefused(device: player.device, status: status, said: player.lastSaid)
        : .playerSilent(device: player.device)
    }
    // Heard: a switch is keyed on the line through the tops of the writes (`SampleClock`),
    // where the pipe has just been filled. From there the sample waits for the pipe to empty,
    // then in the player's hands for a period, then in its buffer, which the player keeps
    // between full and a period short of it (half a period on average): measured by what the
    // player set up (its `-v`), not by sampling the pipe, which is full or a period short of
    // it depending on the moment asked.
    let rate = Double(settings.sampleRate)
    let buffer = Double(player.bufferSamples ?? Int(rate * (SoundPlayer.bufferTime / .seconds(1))))
    let period = Double(player.periodSamples ?? Int(rate * (SoundPlayer.periodTime / .seconds(1))))
    let held = Double(player.pipeCapacity / 2) + buffer + period / 2 + Double(Self.stretch)
    latency = .nanoseconds(Int64(held / rate * 1e9))
  }

  /// The writing thread: the tone, a stretch at a time, until stopped, drained or failed.
  /// Drained, it goes on with silence for as long as the player holds (its buffer and a
  /// period), so that the player's buffer holds nothing but silence when it stops: a card
  /// that plays on a moment from a stale buffer (snd-aloop does) then plays silence.
  private func writeUntilStopped() {
    var silenceLeft: Int?
    while true {
      let (isStopping, isDraining) = writer.withLock { ($0.isStopping, $0.isDraining) }
      if isStopping { break }
      if isDraining, silenceLeft == nil, tone.withLock({ $0.isQuiet }) {
        silenceLeft = (player.bufferSamples ?? 0) + (player.periodSamples ?? 0) + Self.stretch
      }
      if let left = silenceLeft {
        if left <= 0 { break }
        silenceLeft = left - Self.stretch
      }
      let samples = tone.withLock { $0.next(Self.stretch) }
      do throws(Errno) {
        try player.write(samples)
      } catch {
        let failure = SoundError.playerEnded(
          device: player.device, status: player.exitStatus(), said: player.lastSaid)
        writer.withLock { $0.failure = failure }
        if !writer.withLock({ $0.isStopping }) { cancellation.withLock { $0 }?.fail(failure) }
        break
      }
      let written = writer.withLock { writer in
        writer.written += samples.count
        return writer.written
      }
      let writtenAt = MonotonicTime.now()
      clock.withLock { $0.record(written: written, at: writtenAt) }
      writer.wakeWaiters()
    }
    writer.withLock { $0.hasEnded = true }
    writer.wakeWaiters()
  }

  /// Ends the writing thread at once: the player is stopped, so a write blocked on it fails.
  private func stopWriter() {
    writer.withLock { $0.isStopping = true }
    player.stop()
    writer.wait(until: { $0.hasEnded }, then: { _ in })
  }

  /// Keys the tone at the sample that now falls on.
  public func set(_ isOn: Bool) throws {
    if let failure = writer.withLock({ $0.failure }) { throw failure }
    let now = MonotonicTime.now()
    let sample = clock.withLock { $0.sample(at: now) } + Self.stretch
    tone.withLock { $0.key(isOn, at: sample) }
  }

  /// Writes until the tone has fallen silent, then lets the player play out what it holds.
  public func drain() throws {
    writer.withLock { $0.isDraining = true }
    writer.wait(until: { $0.hasEnded }, then: { _ in })
    if let failure = writer.withLock({ $0.failure }) { throw failure }
    player.finish(limit: latency + .seconds(1))
  }

  /// Stops the sound at once (the player too), unless it was drained.
  public func restore() throws {
    if !writer.withLock({ $0.hasEnded }) { stopWriter() }
    player.finish(limit: .zero)
  }

  public func reportFailures(to cancellation: Cancellation) {
    self.cancellation.withLock { $0 = cancellation }
  }
}

/// Which sample a moment falls on: the samples written go forward in steps, as the player
/// takes a period at a time, and this is the line through the tops of the steps of the last
/// `window` (the most written ahead of the rate's line): a switch keyed there is never behind
/// the writer, and the line follows the player's clock as it drifts from the monotonic one.
struct SampleClock {
  let rate: Int
  var window = Duration.milliseconds(100)
  /// Each write's end: when, and `written - rate × time` then.
  private var tops: [(time: MonotonicInstant, offset: Double)] = []

  init(rate: Int) {
    self.rate = rate
  }

  /// `written` samples had been written at `time`.
  mutating func record(written: Int, at time: MonotonicInstant) {
    tops.append((time, Double(written) - Double(rate) * seconds(time)))
    if let first = tops.first, time - first.time > window {
      tops.removeAll { time - $0.time > window }
    }
  }

  /// The sample `time` falls on; 0 before any write.
  func sample(at time: MonotonicInstant) -> Int {
    guard let top = tops.map(\.offset).max() else { return 0 }
    return Int((top + Double(rate) * seconds(time)).rounded())
  }

  private func seconds(_ time: MonotonicInstant) -> Double {
    let (whole, fraction) = time.sinceOrigin.components
    return Double(whole) + Double(fraction) / 1e18
  }
}
