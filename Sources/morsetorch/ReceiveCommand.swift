import GPIODriver
import LinuxSystem
import MorseCore
import MorsePlayer

/// `morsetorch receive`: Morse from the edges of a GPIO input line (the kernel's timestamps)
/// or from a file of edges, printed as it is read.
struct ReceiveCommand {
  private let arguments: StringArguments
  private let environment: [String: String]

  init(_ words: [String], environment: [String: String]) throws(UsageError) {
    arguments = try StringArguments(words, specs: Options.receive, command: "receive")
    self.environment = environment
  }

  func run() throws -> Int32 {
    if arguments.has("help") { return Morsetorch.printing(HelpText.receive) }
    guard arguments.operands.isEmpty else {
      throw UsageError.unexpectedOperands(command: "receive", arguments.operands)
    }
    let settings = try self.settings()
    let timeout = try self.timeout()
    let edgesPath = arguments.values["edges"]
    let line = try arguments.values["gpio"].map { try GPIOLineAddress($0) }
    switch (edgesPath, line) {
    case (nil, nil):
      throw UsageError.requiresOption("receive", requirement: "--gpio CHIP:LINE or --edges FILE")
    case (.some, .some): throw UsageError.conflictingOptions("--gpio", "--edges")
    default: break
    }
    if edgesPath != nil {
      for option in ["active-low", "bias"] where arguments.has(option) {
        throw UsageError.requiresOption("--\(option)", requirement: "--gpio CHIP:LINE")
      }
    }
    let cancellation = Cancellation()
    let watcher = try SignalWatcher(
      signals: SignalWatcher.stoppingSignals, cancelling: cancellation
    ) { _ in cancellation.cancel() }
    var printer = ReceivedText(receiver: MorseReceiver(settings: settings))
    defer { printer.finish() }
    if let edgesPath {
      try readEdges(from: edgesPath, into: &printer, cancellation: cancellation, timeout: timeout)
    } else if let line {
      try listen(to: line, into: &printer, cancellation: cancellation, timeout: timeout)
    }
    printer.finish()
    guard let signal = watcher.stoppingSignal ?? watcher.firstSignal else {
      return ExitStatus.success
    }
    Console.note("stopped by \(signalName(signal))")
    return ExitStatus.signalled(signal)
  }

  /// The receiver's settings: `--wpm`, `--farnsworth`, `--alphabet`.
  private func settings() throws -> MorseReceiver.Settings {
    var settings = MorseReceiver.Settings()
    if let wpm = try arguments.integer("wpm") {
      guard (5...60).contains(wpm) else {
        throw UsageError.invalidValue(
          option: "--wpm", value: String(wpm), expected: "a whole number from 5 to 60")
      }
      settings.wordsPerMinute = Double(wpm)
    }
    if let farnsworth = try arguments.integer("farnsworth") {
      guard (1...60).contains(farnsworth) else {
        throw UsageError.invalidValue(
          option: "--farnsworth", value: String(farnsworth), expected: "a whole number from 1 to 60"
        )
      }
      settings.farnsworthWPM = Double(farnsworth)
    }
    settings.alphabet = try DecodeCommand.alphabet(arguments.values["alphabet"])
    return settings
  }

  /// `--timeout TIME`: how long to listen at most.
  private func timeout() throws(UsageError) -> Duration? {
    guard let text = arguments.values["timeout"] else { return nil }
    guard let duration = DurationText.parse(text) else {
      throw .invalidValue(
        option: "--timeout", value: text,
        expected: "a time like 500ms, 30s, 1.5s or 10m (up to 24h)")
    }
    return duration
  }

  /// `--edges FILE|-`: reads edges line by line as they come (a pipe from a sensor works).
  private func readEdges(
    from path: String, into printer: inout ReceivedText, cancellation: Cancellation,
    timeout: Duration?
  ) throws {
    let file: FileDescriptor
    do throws(Errno) {
      file = path == "-" ? .standardInput : try FileDescriptor.open(path, [.readOnly])
    } catch {
      throw InputError.cannotOpen(path: path, errno: error)
    }
    let source = try StreamLineSource(reading: file)
    cancellation.onCancel { source.close() }
    if let timeout {
      let deadline = MonotonicTime.now() + timeout
      try Threads.start {
        if !cancellation.event.wait(untilMonotonic: deadline) { source.close() }
      }
    }
    var number = 0
    var previous: MorseEdge?
    // Until the input ends, or nobody reads what it turns into (`| head -1`).
    while !Console.hasOutputFailed, let piece = try source.nextPiece() {
      if !piece.continuesLine { number += 1 }
      let text = String(decoding: piece.bytes, as: UTF8.self)
      guard let edge = try EdgeText.parse(text[...], number: number, after: previous) else {
        continue
      }
      previous = edge
      printer.receive(edge)
    }
  }

  /// `--gpio CHIP:LINE`: the line's edges as the kernel timestamps them, until a signal or
  /// the timeout; silence completes characters as it goes.
  private func listen(
    to address: GPIOLineAddress, into printer: inout ReceivedText, cancellation: Cancellation,
    timeout: Duration?
  ) throws {
    let line = try GPIOChipDirectory(environment: environment).line(address)
    var flags: GPIOLineFlags = [.input, .edgeRising, .edgeFalling]
    if arguments.has("active-low") { flags.insert(.activeLow) }
    if let bias = try GPIOChoice.bias(arguments.values["bias"]) { flags.insert(bias.flag) }
    let input = try line.chip.requestInput(
      offset: line.offset, flags: flags, consumer: GPIODevice.consumer)
    defer { input.release() }
    let deadline = timeout.map { MonotonicTime.now() + $0 }
    if try input.isActive() { printer.receive(MorseEdge(time: MonotonicTime.now(), isOn: true)) }
    while !cancellation.isCancelled && !Console.hasOutputFailed {
      let now = MonotonicTime.now()
      if let deadline, now >= deadline { break }
      let wait = min(.milliseconds(50), deadline.map { $0 - now } ?? .milliseconds(50))
      if let event = try input.nextEdge(timeout: wait) {
        printer.receive(
          MorseEdge(time: .nanoseconds(Int64(event.timestampNanoseconds)), isOn: event.isRising))
      } else {
        printer.advance(to: MonotonicTime.now())
      }
    }
  }
}
