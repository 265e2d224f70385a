import Instants
import LinuxSystem

/// ffmpeg, run as a child process, decoding a video file of any format it knows into the
/// YUV4MPEG2 stream `Y4MReader` reads (luma only), each frame passed through as the file has
/// it (`-fps_mode passthrough`: none repeated or dropped to make a constant rate), and the
/// time of each as the file gives it, from ffmpeg's `showinfo` filter on its standard error.
///
/// A phone's video has a variable frame rate: timed by their number and the header's rate, its
/// frames would drift, and a gap between two would be hidden. Timed by their own timestamps,
/// they are not. What remains of that limit: a frame is still one sample of the light, so a
/// gap in the recording is a gap in what is seen.
public final class VideoDecoder {
  /// The program, looked for on `PATH`.
  public static let program = "ffmpeg"

  private let pid: Int32
  private let log: Monitor<Log>
  private let reader = WorkerThread()
  private var exitStatus: Int32?

  /// What ffmpeg said: each frame's time, and its errors.
  private struct Log {
    var times: [Duration] = []
    /// The time base of the timestamps (`showinfo`'s `config in time_base: 1/15360`).
    var timeBase: (numerator: Int64, denominator: Int64)?
    var errors: [String] = []
    var lines: [String] = []
    var isEnded = false
  }

  /// The arguments that decode `path`: its first video stream, grey, every frame as it comes,
  /// a line of `showinfo` for each.
  static func arguments(_ program: String, path: String) -> [String] {
    [
      // `file:`: the file itself, whatever its name (`12:30.mp4` is no protocol, `-x` no
      // option).
      program, "-hide_banner", "-nostdin", "-nostats", "-loglevel", "level+info",
      "-i", "file:" + path,
      "-map", "0:v:0", "-vf", "showinfo=checksum=0", "-fps_mode", "passthrough",
      "-pix_fmt", "gray", "-f", "yuv4mpegpipe", "-",
    ]
  }

  /// ffmpeg found on `searchPath` (a `PATH`), if any.
  public static func find(onPath searchPath: String) -> String? {
    FileSystem.program(program, onPath: searchPath)
  }

  /// Starts decoding `path` with the ffmpeg at `program`, the stream written to `output` (a
  /// pipe's write end, which the caller closes and reads the other end of).
  public init(
    path: String, program: String, environment: [String: String],
    output: borrowing FileDescriptor
  ) throws(VideoError) {
    let log = Monitor(Log())
    self.log = log
    do throws(Errno) {
      let errors = try Pipe()
      var descriptors = SpawnDescriptors()
      descriptors.give(output, as: 1)
      descriptors.give(errors.writeEnd, as: 2)
      pid = try ChildProcess.spawn(
        program, arguments: Self.arguments(program, path: path), environment: environment,
        descriptors: descriptors, defaultSignals: [Signals.brokenPipe],
        // Ctrl-C is this process's to act on: ffmpeg ended by it too would end the stream
        // early, and its exit would read as a failure to decode.
        isInOwnProcessGroup: true)
      let said = errors.closingWriteEnd()
      let box = Box(said)
      try reader.start {
        Self.read(box.file, into: log)
      }
    } catch {
      throw .decoderFailed(program: program, reason: "cannot start it: \(error)")
    }
  }

  deinit {
    close()
  }

  /// The time of frame `number` (from 0) as the file has it, from the start of the first; nil
  /// if ffmpeg said none for it. Waits for its line, which ffmpeg writes before the frame.
  public func time(ofFrame number: Int) -> Duration? {
    log.wait(until: { $0.times.count > number || $0.isEnded }) { log in
      guard number < log.times.count, let first = log.times.first else { return nil }
      return log.times[number] - first
    }
  }

  /// Why ffmpeg failed, in its words, once its stream has ended or broken off; nil if it
  /// ended well, or if it has not ended within `patience` (then what broke is not its doing,
  /// and `close` ends it).
  public func failure(patience: Duration = .seconds(2)) -> VideoError? {
    let deadline = MonotonicTime.now() + patience
    guard log.wait(until: { $0.isEnded }, orDeadline: { _ in deadline }, then: { $0.isEnded })
    else {
      return nil
    }
    let status = waitForExit()
    guard status != 0 else { return nil }
    reader.wait()
    let (errors, lines) = log.withLock { ($0.errors, $0.lines) }
    let reason = errors.last ?? lines.last ?? "it exited with status \(status)"
    return .decoderFailed(program: Self.program, reason: reason)
  }

  /// Ends ffmpeg if it still runs (a stop, a reader that gave up), and waits for it.
  public func close() {
    if exitStatus == nil, (try? ChildProcess.exitStatusIfEnded(pid)) == nil {
      if let handle = try? ProcessHandle(pid: pid) { try? handle.terminate() }
    }
    _ = waitForExit()
    reader.wait()
  }

  private func waitForExit() -> Int32 {
    if let exitStatus { return exitStatus }
    let status = (try? ChildProcess.waitForExit(pid)) ?? 1
    exitStatus = status
    return status
  }

  /// Reads ffmpeg's standard error to its end: each `showinfo` line's `pts_time`, and the
  /// last of its other lines (kept for an error).
  private static func read(_ file: borrowing FileDescriptor, into log: Monitor<Log>) {
    var pending: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count =
        (try? chunk.withUnsafeMutableBytes { buffer in try file.read(into: buffer) }) ?? 0
      if count > 0 { pending += chunk[..<count] }
      // Lines end in "\n", and a progress line in "\r".
      var lines: [String] = []
      while let end = pending.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
        lines.append(String(decoding: pending[..<end], as: UTF8.self))
        pending.removeSubrange(...end)
      }
      if count == 0, !pending.isEmpty {
        lines.append(String(decoding: pending, as: UTF8.self))
        pending = []
      }
      log.withLock { log in
        for line in lines where !line.isEmpty { take(line, into: &log) }
        if count == 0 { log.isEnded = true }
      }
      log.wakeWaiters()
      if count == 0 { return }
    }
  }

  /// Takes one line of ffmpeg's (`-loglevel level+info`: each level in brackets): a frame's
  /// time, the time base, an error, or another line.
  private static func take(_ line: String, into log: inout Log) {
    if line.contains("showinfo") {
      if let time = frameTime(line, timeBase: log.timeBase) {
        log.times.append(time)
        return
      }
      if let base = timeBase(line) {
        log.timeBase = base
        return
      }
    }
    if let error = line.firstRange(of: "[error] ") ?? line.firstRange(of: "[fatal] ") {
      log.errors.append(String(line[error.upperBound...]))
      if log.errors.count > 5 { log.errors.removeFirst() }
    } else {
      log.lines.append(line)
      if log.lines.count > 5 { log.lines.removeFirst() }
    }
  }

  /// The value after `name` in a line, to the next space.
  private static func field(_ name: String, of line: String) -> Substring? {
    guard let range = line.firstRange(of: name) else { return nil }
    return line[range.upperBound...].drop { $0 == " " }.prefix { $0 != " " && $0 != "," }
  }

  /// The time base of `showinfo`'s `config in time_base: 1/15360, frame_rate: 30/1`.
  static func timeBase(_ line: String) -> (numerator: Int64, denominator: Int64)? {
    guard let value = field("config in time_base:", of: line) else { return nil }
    let parts = value.split(separator: "/")
    guard parts.count == 2, let numerator = Int64(parts[0]), let denominator = Int64(parts[1]),
      numerator > 0, denominator > 0
    else { return nil }
    return (numerator, denominator)
  }

  /// The time of the frame a `showinfo` line is about (`… n:  12 pts: 6144 pts_time:0.4 …`):
  /// its `pts` in the time base, exactly, where the base is known; else its `pts_time`,
  /// which ffmpeg rounds to six figures.
  static func frameTime(
    _ line: String, timeBase: (numerator: Int64, denominator: Int64)?
  ) -> Duration? {
    guard line.contains(" n:") else { return nil }
    if let timeBase, let pts = field(" pts:", of: line).flatMap({ Int64($0) }) {
      let seconds = Double(pts) * Double(timeBase.numerator) / Double(timeBase.denominator)
      return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
    guard let value = field("pts_time:", of: line), let seconds = Double(value),
      seconds.isFinite
    else { return nil }
    return .nanoseconds(Int64((seconds * 1e9).rounded()))
  }

  private final class Box: Sendable {
    let file: FileDescriptor
    init(_ file: consuming FileDescriptor) { self.file = file }
  }
}
