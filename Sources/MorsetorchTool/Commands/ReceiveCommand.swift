import GPIODriver
import LinuxSystem
import MorseCore
import MorsePlayer

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
    guard case .run(let plan) = invocation else { return Morsetorch.printing(HelpText.receive) }
    let timeout = plan.timeout
    let cancellation = Cancellation()
    let watcher = try SignalWatcher(
      signals: SignalWatcher.stoppingSignals, cancelling: cancellation
    ) { _ in cancellation.cancel() }
    var printer = ReceivedText(receiver: MorseReceiver(settings: plan.settings))
    defer { printer.finish() }
    switch plan.source {
    case .edges(let path):
      try readEdges(from: path, into: &printer, cancellation: cancellation, timeout: timeout)
    case .gpio(let line, let isActiveLow, let bias):
      var flags: GPIOLineFlags = [.input, .edgeRising, .edgeFalling]
      if isActiveLow { flags.insert(.activeLow) }
      if let bias { flags.insert(bias.flag) }
      try listen(
        to: line, flags: flags, into: &printer, cancellation: cancellation, timeout: timeout)
    }
    printer.finish()
    guard let signal = watcher.stoppingSignal ?? watcher.firstSignal else {
      return ExitStatus.success
    }
    Console.note("stopped by \(signalName(signal))")
    return ExitStatus.signalled(signal)
  }

  /// `--edges FILE|-`: reads edges line by line as they come (a pipe from a sensor works).
  private func readEdges(
    from path: String, into printer: inout ReceivedText, cancellation: Cancellation,
    timeout: Duration?
  ) throws {
    let file: FileDescriptor
    do throws(Errno) {
      // Non-blocking: open(2) of a FIFO would otherwise wait for a writer, deaf to signals
      // and to --timeout. The reader polls before each read (StreamLineSource).
      file =
        path == "-" ? .standardInput : try FileDescriptor.open(path, [.readOnly, .nonBlocking])
    } catch {
      throw InputError.cannotOpen(path: path, errno: error)
    }
    let source = try StreamLineSource(reading: file)
    cancellation.onCancel { source.close() }
    if let timeout {
      let deadline = MonotonicTime.now() + timeout
      try Threads.start {
        // true: the deadline came before any cancellation.
        if cancellation.event.wait(untilMonotonic: deadline) { source.close() }
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
      printer.receive(MorseEdge(time: MonotonicTime.now().sinceOrigin, isOn: true))
    }
    while !cancellation.isCancelled && !Console.hasOutputFailed {
      let now = MonotonicTime.now()
      if let deadline, now >= deadline { break }
      let wait = min(.milliseconds(50), deadline.map { $0 - now } ?? .milliseconds(50))
      if let event = try input.nextEdge(timeout: wait) {
        printer.receive(
          MorseEdge(time: .nanoseconds(Int64(event.timestampNanoseconds)), isOn: event.isRising))
      } else {
        printer.advance(to: MonotonicTime.now().sinceOrigin)
      }
    }
  }
}
