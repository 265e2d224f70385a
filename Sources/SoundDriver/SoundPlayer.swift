import Instants
import LinuxSystem
import Synchronization

/// The program that takes the sound to the machine's audio output: `aplay` (alsa-utils), as a
/// child process reading raw samples on its standard input.
///
/// Why a child process: the product links no library but the C library (its executable is
/// static), and a desktop's sound server (PipeWire, PulseAudio) owns the sound card, so only
/// a client of that server may play while it runs. `aplay` is that client everywhere: on a
/// desktop its "default" device is the server (pipewire-alsa), on Raspberry Pi OS Lite it is
/// the card itself; it ships in alsa-utils on both.
///
/// The pipe to it holds one page, and its own buffer about 40 ms: the writer blocks when
/// both are full, so the player's clock paces the sound, and the delay from a sample written
/// to it heard is what those hold (`latency`).
public final class SoundPlayer: Sendable {
  /// The program's name, looked for on the path.
  public static let program = "aplay"
  /// Samples a second, mono, 16-bit little-endian.
  public static let sampleRate = 48_000
  /// The buffer asked of the player, and its period.
  public static let bufferTime = Duration.milliseconds(40)
  public static let periodTime = Duration.milliseconds(10)

  /// The sound device as named (`default`, `hw:1`, `plughw:CARD=Headphones`).
  public let device: String
  private let pid: Int32
  /// The pipe's write end, until closed. Writes hold the lock: close it once no thread
  /// writes (`SoundTorch` ends its writer first).
  private let input: Mutex<FileDescriptor?>
  /// Its exit status, once waited for (the pid is free for another process from then on).
  private let ended = Mutex<Int32?>(nil)
  /// How many bytes the pipe to the player holds.
  public let pipeCapacity: Int
  private let said: BackgroundReader

  /// The player's arguments for `device`: raw samples on standard input, its setup printed
  /// (`-v`: the buffer it got, for the latency).
  public static func arguments(_ path: String, device: String) -> [String] {
    [
      path, "-v", "-t", "raw", "-f", "S16_LE", "-c", "1", "-r", String(sampleRate),
      "--buffer-time=\(Int(bufferTime / .microseconds(1)))",
      "--period-time=\(Int(periodTime / .microseconds(1)))", "-D", device,
    ]
  }

  /// The player found on `searchPath` (a `PATH`), if any.
  public static func find(onPath searchPath: String) -> String? {
    FileSystem.program(program, onPath: searchPath)
  }

  /// Starts the player at `path` for `device`, in `environment` (a desktop's sound server is
  /// found through it: `XDG_RUNTIME_DIR`).
  public init(path: String, device: String, environment: [String: String]) throws(SoundError) {
    self.device = device
    do throws(Errno) {
      let samples = try Pipe()
      pipeCapacity = (try? samples.setCapacity(4096)) ?? 65_536
      let errors = try Pipe()
      var descriptors = SpawnDescriptors()
      descriptors.give(samples.readEnd, as: 0)
      descriptors.give(errors.writeEnd, as: 2)
      pid = try ChildProcess.spawn(
        path, arguments: Self.arguments(path, device: device), environment: environment,
        descriptors: descriptors, defaultSignals: [Signals.brokenPipe],
        // Ctrl-C is this process's to act on (it silences the player itself): a player ended
        // by it too would fail the writes, and the stop would read as a failure to play.
        isInOwnProcessGroup: true)
      input = Mutex(samples.closingReadEnd())
      said = try BackgroundReader(errors.closingWriteEnd())
    } catch {
      throw .cannotStart(program: path, errno: error)
    }
  }

  /// Writes `samples` as 16-bit little-endian, blocking while the pipe is full.
  public func write(_ samples: [Int16]) throws(Errno) {
    var bytes = [UInt8]()
    bytes.reserveCapacity(samples.count * 2)
    for sample in samples {
      let bits = UInt16(bitPattern: sample)
      bytes.append(UInt8(bits & 0xff))
      bytes.append(UInt8(bits >> 8))
    }
    try input.withLock { input throws(Errno) in
      switch input {
      case .some(let file): try file.writeAll(bytes)
      case .none: throw .badFileDescriptor
      }
    }
  }

  /// The player's exit status once it has ended; nil while it runs.
  public func exitStatus() -> Int32? {
    ended.withLock { ended in
      if ended == nil, let status = (try? ChildProcess.exitStatusIfEnded(pid)) ?? nil {
        ended = status
      }
      return ended
    }
  }

  /// The player's last line on standard error so far (what it says when it fails).
  public var lastSaid: String {
    let text = String(decoding: said.readSoFar, as: UTF8.self)
    return text.split(separator: "\n").last.map(String.init) ?? ""
  }

  /// The buffer the player set up, in samples, as it printed it (`buffer_size : N`, the
  /// first: the device it plays to); nil before it has, or where it does not say.
  public var bufferSamples: Int? { printedSetting("buffer_size") }

  /// The period the player set up, in samples (`period_size : N`): what it reads from the
  /// pipe at a time, and holds while it waits for room in the buffer.
  public var periodSamples: Int? { printedSetting("period_size") }

  /// The first `NAME : N` line of what the player printed.
  private func printedSetting(_ name: String) -> Int? {
    let text = String(decoding: said.readSoFar, as: UTF8.self)
    for line in text.split(separator: "\n") {
      let words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "\t" })
      if words.count == 2, words[0] == name, let value = Int(words[1]) { return value }
    }
    return nil
  }

  /// Stops the player at once (SIGTERM), if it runs: a write blocked on its full pipe then
  /// fails (`EPIPE`).
  public func stop() {
    ended.withLock { ended in
      // Our own child, not yet waited for: its number cannot have gone to another process.
      if ended == nil { try? ProcessHandle(pid: pid).terminate() }
    }
  }

  /// Closes the pipe (once no thread writes it) and waits for the player to end: it plays
  /// what it holds first; past `limit`, it is stopped.
  public func finish(limit: Duration = .seconds(2)) {
    input.withLock { input in
      if let taken = input.take() { try? taken.close() }
    }
    let deadline = MonotonicTime.now() + limit
    let pause = OneShotEvent()
    while exitStatus() == nil && MonotonicTime.now() < deadline {
      _ = pause.wait(untilMonotonic: MonotonicTime.now() + .milliseconds(5))
    }
    stop()
    ended.withLock { ended in
      if ended == nil { ended = (try? ChildProcess.waitForExit(pid)) ?? 128 + 15 }
    }
  }
}
