import GPIODriver
import Instants
import LightSources
import LinuxSystem
import MorseCore
import DeviceContract
import MorsePlayer
import MorseReceiving

/// `morsetorch receive`: Morse from the edges of a GPIO input line (the kernel's timestamps)
/// or from a file of edges, printed as it is read.
struct ReceiveCommand {
  private let invocation: Invocation<ReceivePlan>
  private let environment: ProcessEnvironment

  init(_ words: [String], environment: ProcessEnvironment) throws {
    invocation = try Invocation(words, command: "receive")
    self.environment = environment
  }

  func run() throws -> Int32 {
    guard case .run(let plan) = invocation else {
      return Morsetorch.printing(HelpText.receive.text)
    }
    let timeout = plan.timeout
    let cancellation = Cancellation()
    let watcher = try SignalWatcher(
      signals: Signals.terminating, cancelling: cancellation
    ) { _ in cancellation.cancel() }
    // Fired by a signal or at --timeout: ends every wait for a file (input, or a FIFO's reader).
    let stop = OneShotEvent()
    cancellation.onCancel { stop.fire() }
    try Self.at(timeout, unless: cancellation) { stop.fire() }
    let recorder = try plan.edgesOut.map { path throws(EdgeRecorder.Failure) in
      try EdgeRecorder(path: path, stop: stop)
    }
    var printer = ReceivedText(receiver: MorseReceiver(settings: plan.settings), recorder: recorder)
    defer { printer.finish() }
    switch plan.source {
    case .edges(let path):
      try readEdges(from: path, into: &printer, stop: stop)
    case .gpio(let line, let isActiveLow, let bias):
      var flags: GPIOLineFlags = [.input, .edgeRising, .edgeFalling]
      if isActiveLow { flags.insert(.activeLow) }
      if let bias { flags.insert(bias.flag) }
      try listen(
        to: line, flags: flags, into: &printer, cancellation: cancellation, timeout: timeout)
    case .video(let path, let region):
      try watch(path, region: region, into: &printer, stop: stop)
    case .camera(let path, let region, let size, let fps):
      try look(through: path, region: region, size: size, fps: fps, into: &printer, stop: stop)
    }
    printer.finish()
    guard let signal = watcher.stoppingSignal ?? watcher.firstSignal else {
      return ExitStatus.success
    }
    Console.note("stopped by \(Signals.name(signal))")
    return ExitStatus.signalled(signal)
  }

  /// `--edges FILE|-`: reads edges as they come (a pipe from a sensor works), a block at a
  /// time on this thread, until the input ends or `stop` fires.
  private func readEdges(from path: String, into printer: inout ReceivedText, stop: OneShotEvent)
    throws
  {
    let file = try Self.open(path)
    var reader = EdgeTextReader()
    var block = [UInt8](repeating: 0, count: 65_536)
    // Until the input ends, or nobody reads what it turns into (`| head -1`).
    while !Console.hasOutputFailed {
      let count = try Errno.mapping(
        { () throws(Errno) in
          try block.withUnsafeMutableBytes { bytes in
            Result { () throws(Errno) in try file.read(into: bytes, unlessFired: stop) }
          }.get()
        }, to: InputError.readFailed)
      guard let count else { return }
      if count == 0 { reader.end() } else { reader.append(block[..<count]) }
      while !Console.hasOutputFailed, let edge = try reader.next() {
        try printer.receive(edge)
      }
      if count == 0 { return }
    }
  }

  /// `FILE` to read, `-` standard input. Non-blocking: open(2) of a FIFO would otherwise
  /// wait for a writer, deaf to signals and to --timeout; the readers poll before each read.
  private static func open(_ path: String) throws(InputError) -> FileDescriptor {
    do throws(Errno) {
      return path == "-"
        ? .standardInput : try FileDescriptor.open(path, [.readOnly, .nonBlocking])
    } catch {
      throw .cannotOpen(path: path, errno: error)
    }
  }

  /// Runs `action` on a thread of its own once `timeout` has passed, unless `cancellation`
  /// comes first.
  private static func at(
    _ timeout: Duration?, unless cancellation: Cancellation,
    _ action: @escaping @Sendable () -> Void
  ) throws {
    guard let timeout else { return }
    let deadline = MonotonicTime.now() + timeout
    try Threads.start {
      // true: the deadline came before any cancellation.
      if cancellation.event.wait(untilMonotonic: deadline) { action() }
    }
  }

  /// `--gpio CHIP:LINE`: the line's edges as the kernel timestamps them (the line asked for
  /// with `flags`), until a signal or the timeout; silence completes characters as it goes.
  private func listen(
    to address: GPIOLineAddress, flags: GPIOLineFlags, into printer: inout ReceivedText,
    cancellation: Cancellation, timeout: Duration?
  ) throws {
    let line = try environment.gpioChips.line(address)
    let input = try line.chip.requestInput(
      offset: line.offset, flags: flags, consumer: GPIODevice.consumer)
    defer { input.release() }
    let deadline = timeout.map { MonotonicTime.now() + $0 }
    if try input.isActive() {
      try printer.receive(MorseEdge(time: MonotonicTime.now(), isOn: true))
    }
    while !cancellation.isCancelled && !Console.hasOutputFailed {
      let now = MonotonicTime.now()
      if let deadline, now >= deadline { break }
      let wait = min(.milliseconds(50), deadline.map { $0 - now } ?? .milliseconds(50))
      if let event = try input.nextEdge(timeout: wait) {
        try printer.receive(
          MorseEdge(
            time: .origin + .nanoseconds(Int64(event.timestampNanoseconds)), isOn: event.isRising))
      } else {
        printer.advance(to: MonotonicTime.now())
      }
    }
  }

  /// `--video FILE|-`: a YUV4MPEG2 stream's frames, as fast as they come, timed by its frame
  /// rate; where the light is found, moves or is lost is said on standard error.
  private func watch(
    _ path: String, region: LightRegion?, into printer: inout ReceivedText, stop: OneShotEvent
  ) throws {
    // Nil: stopped (a signal, --timeout) before the video's header came.
    guard let video = try Y4MReader(file: try Self.open(path), stop: stop) else { return }
    let header = video.header
    if let region, !region.fits(width: header.width, height: header.height) {
      throw UsageError.invalidValue(
        option: ReceiveOption.region.flag, value: "\(region.x),\(region.y),\(region.width),\(region.height)",
        expected: "a region inside the video's \(header.width)x\(header.height) picture")
    }
    var light = LightReader(region: region, frameInterval: header.frameInterval, exposure: nil)
    while !Console.hasOutputFailed, let frame = try video.next() {
      try light.read(frame, into: &printer)
    }
    light.finish(watched: "of video", noFrame: "the video holds no frame after its header")
  }

  /// `--camera [DEVICE]`: the frames of a V4L2 camera, timed by the kernel, until a signal or
  /// the timeout; its automatic exposure and gain are off meanwhile and put back after.
  private func look(
    through path: String?, region: LightRegion?, size: (width: Int, height: Int)?, fps: Int?,
    into printer: inout ReceivedText, stop: OneShotEvent
  ) throws {
    let (device, info) = try environment.videoDevices.choose(path)
    let camera = try Camera(device: device, info: info, size: size, framesPerSecond: fps)
    let read = Result { () throws in
      try readFrames(from: camera, region: region, stop: stop, into: &printer)
    }
    let restored = Result { () throws(CameraError) in try camera.close() }
    if case .failure(let error) = restored, case .failure = read { Console.note(error.description) }
    try read.get()
    try restored.get()
  }

  private func readFrames(
    from camera: Camera, region: LightRegion?, stop: OneShotEvent, into printer: inout ReceivedText
  ) throws {
    let picture = camera.picture
    if let region, !region.fits(width: picture.width, height: picture.height) {
      throw UsageError.invalidValue(
        option: ReceiveOption.region.flag,
        value: "\(region.x),\(region.y),\(region.width),\(region.height)",
        expected: "a region inside the camera's \(picture.width)x\(picture.height) picture")
    }
    Console.note(Self.describe(camera))
    var light = LightReader(
      region: region, frameInterval: camera.frameInterval, exposure: camera.exposure)
    while !stop.isFired && !Console.hasOutputFailed {
      if let frame = try camera.next(within: .milliseconds(250), unlessFired: stop) {
        try light.read(frame, into: &printer)
      } else {
        printer.advance(to: MonotonicTime.now())
      }
    }
    light.finish(watched: "watched", noFrame: "the camera gave no frame")
    if camera.droppedFrames > 0 {
      Console.note("the camera dropped \(camera.droppedFrames) frames")
    }
  }

  /// `camera /dev/video0 (uvcvideo: HD Webcam): 640x480 YUYV, 30 fps; Auto Exposure, ...
  /// changed (put back at the end)`.
  private static func describe(_ camera: Camera) -> String {
    let picture = camera.picture
    let rate = Double(Duration.seconds(1) / camera.frameInterval)
    let fps = (rate * 10).rounded() / 10
    var text = "camera \(camera.device.path) (\(camera.info.driver): \(camera.info.card)): "
      + "\(picture.width)x\(picture.height) \(camera.format.rawValue), "
      + "\(fps == fps.rounded() ? String(Int(fps)) : String(fps)) fps"
    if let exposure = camera.exposure {
      text += ", exposure \(exposure.millisecondsText) ms"
    }
    let changed = camera.changes.map(\.name)
    if !changed.isEmpty {
      text += "; set: \(changed.joined(separator: ", ")) (put back at the end)"
    }
    return text
  }

  /// `12.3 s`.
  fileprivate static func seconds(_ time: Duration) -> String {
    let tenths = Int((time / .milliseconds(100)).rounded())
    return "\(tenths / 10).\(tenths % 10) s"
  }
}

/// The light receiver between a source of frames and the printer: edges printed, where the
/// light is found, moves or is lost said on standard error.
private struct LightReader {
  private var receiver: LightReceiver
  private let lostAfter: Duration
  /// The first frame's time: what the notes count from (a camera's is the time since boot).
  private var origin: MonotonicInstant?
  private var lastFrame: MonotonicInstant?
  private var isFound = false

  init(region: LightRegion?, frameInterval: Duration, exposure: Duration?) {
    var settings = LightReceiver.Settings()
    settings.region = region
    settings.exposure = exposure
    receiver = LightReceiver(settings: settings, frameInterval: frameInterval)
    lostAfter = settings.lostAfter
  }

  mutating func read(_ frame: LightFrame, into printer: inout ReceivedText) throws {
    let origin = self.origin ?? frame.time
    self.origin = origin
    lastFrame = frame.time
    func seconds(_ time: MonotonicInstant) -> String { ReceiveCommand.seconds(time - origin) }
    for event in receiver.receive(frame) {
      switch event {
      case .edge(let edge): try printer.receive(edge)
      case .found(let region, let time):
        isFound = true
        Console.note("light found at \(region) at \(seconds(time))")
      case .moved(let region, let time):
        Console.note("light moved to \(region) at \(seconds(time))")
      case .lost(let region, let time):
        Console.note(
          "light lost at \(region) at \(seconds(time)) (no blinking for "
            + "\(ReceiveCommand.seconds(lostAfter))); looking for it again")
      }
    }
    printer.advance(to: frame.time)
  }

  /// Says so when no light was found in all the frames, or no frame came (else the output
  /// is empty, and nothing says why): `watched` is what the time is of ("of video"),
  /// `noFrame` what to say without one.
  func finish(watched: String, noFrame: String) {
    guard let origin, let lastFrame else { return Console.note(noFrame) }
    guard !isFound else { return }
    let time = ReceiveCommand.seconds(lastFrame - origin)
    if let region = receiver.settings.region {
      Console.note(
        "the region \(region) did not blink in the \(time) \(watched): check --region "
          + "against the picture (X,Y from its top left corner)")
    } else {
      Console.note(
        "no light blinking Morse was seen in the \(time) \(watched); if one is there, say "
          + "where with --region X,Y,W,H (flicker, a moving or busy picture can hide it)")
    }
  }
}
