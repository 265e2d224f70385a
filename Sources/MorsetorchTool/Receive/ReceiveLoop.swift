import MorseReceiving
import ReceiveSources

/// The one loop of `receive`, whatever the source: inputs from it through a `MorseReading`
/// to `ReceivedText` until it ends, is stopped or nobody reads the output; then the source is
/// closed, and the `--trace` picture drawn, whatever happened (a signal, a bad line: it shows
/// what was read until then). A `--show` view is erased as soon as the reading ends, however.
struct ReceiveLoop {
  /// `--wpm`, `--farnsworth`, `--alphabet`.
  let settings: MorseReceiver.Settings
  /// `--region` (where the light is in a source's frames, if given) and `--active-low`.
  let light: LightReceiver.Settings
  /// `--edges-out`.
  let recorder: EdgeRecorder?
  /// `--trace`: where the reading is drawn at the end.
  let trace: TraceFile?
  /// `--show`: the live view, if any.
  var view: ReceiveView? = nil
  /// Where it speaks.
  var console = ReceiveConsole()

  /// Reads `source` to its end, closes it, then draws the trace; returns the characters
  /// read (none: nothing was). When more than one of them fails, the first's error is the
  /// one thrown and the others' are noted.
  func run(_ source: any ReceiveSource) throws -> Int {
    var drawn = trace.map { _ in ReceiveTrace() }
    let read = Result { () throws in try readToEnd(source, trace: &drawn) }
    view?.finish()
    let closed = Result { () throws in try source.close() }
    let drew = Result { () throws in try draw(drawn) }
    let failures = [read.map { _ in () }, closed, drew].compactMap { result -> (any Error)? in
      if case .failure(let error) = result { error } else { nil }
    }
    for later in failures.dropFirst() { console.note(String(describing: later)) }
    if let first = failures.first { throw first }
    return try read.get()
  }

  /// Writes the picture of `drawn` to the trace file, if there is one; says once what it
  /// left out, if anything (the picture says it too).
  private func draw(_ drawn: ReceiveTrace?) throws {
    guard let drawn, let trace else { return }
    let picture = TraceSVG(drawn)
    try trace.write(picture)
    if let note = picture.droppedNote { console.note(note) }
  }

  /// Reads `source` until it ends, is stopped, or output fails, what it reads also into
  /// `trace`, if there is one; returns the characters read.
  private func readToEnd(_ source: any ReceiveSource, trace: inout ReceiveTrace?) throws -> Int {
    let kind = source.kind
    var reading = try start(kind)
    // The view shows the light's level and the speed, which come with a trace's events.
    reading.isTracing = trace != nil || view != nil
    var printer = ReceivedText(
      recorder: recorder, lostAfter: reading.lightSettings?.lostAfter ?? .zero, console: console)
    // The last character printed however the reading ends (a video cut short prints what
    // was read before the error), and drawn.
    func finish() {
      let last = reading.finish()
      printer.finish(last)
      for event in last { trace?.add(event) }
    }
    do {
      while !console.hasOutputFailed(), let input = try source.next() {
        try reading.read(input) { (event) throws(EdgeRecorder.Failure) in
          trace?.add(event)
          view?.add(event)
          try printer.show(event)
        }
        if case .frame(let frame) = input { view?.see(frame, held: reading.heldText) }
      }
    } catch {
      finish()
      throw error
    }
    finish()
    printer.sayEnd(of: reading, picture: kind.picture)
    for note in source.endingNotes() { console.note(note) }
    return reading.characters
  }

  /// The reading for a source of `kind`: for frames, once `--region` is known to lie inside
  /// the picture (the one place that is checked) and the source's set-up said.
  private func start(_ kind: ReceiveSourceKind) throws(UsageError) -> MorseReading {
    let receiver = MorseReceiver(settings: settings)
    guard case .frames(let picture) = kind else { return MorseReading(receiver: receiver) }
    if let region = light.region, !region.fits(width: picture.width, height: picture.height) {
      throw .invalidValue(
        option: ReceiveOption.region.flag,
        value: "\(region.x),\(region.y),\(region.width),\(region.height)",
        expected: "a region inside \(picture.owner) \(picture.width)x\(picture.height) picture")
    }
    if let note = picture.openingNote { console.note(note) }
    var light = light
    light.exposure = picture.exposure
    return MorseReading(
      receiver: receiver,
      light: LightReceiver(settings: light, frameInterval: picture.frameInterval))
  }
}
