import MorseReceiving

/// The one loop of `receive`, whatever the source: inputs from it through a `MorseReading`
/// to `ReceivedText` until it ends, is stopped or nobody reads the output; then the source is
/// closed, whatever happened.
struct ReceiveLoop {
  /// `--wpm`, `--farnsworth`, `--alphabet`.
  let settings: MorseReceiver.Settings
  /// `--region` (where the light is in a source's frames, if given) and `--active-low`.
  let light: LightReceiver.Settings
  /// `--edges-out`.
  let recorder: EdgeRecorder?
  /// Where it speaks.
  var console = ReceiveConsole()

  /// Reads `source` to its end, then closes it; returns the characters read (none: nothing
  /// was). When both fail, the read's error is the one thrown and the close's is noted.
  func run(_ source: any ReceiveSource) throws -> Int {
    let read = Result { () throws in try readToEnd(source) }
    let closed = Result { () throws in try source.close() }
    if case .failure(let error) = closed, case .failure = read {
      console.note(String(describing: error))
    }
    let characters = try read.get()
    try closed.get()
    return characters
  }

  /// Reads `source` until it ends, is stopped, or output fails; returns the characters read.
  private func readToEnd(_ source: any ReceiveSource) throws -> Int {
    let kind = source.kind
    var reading = try start(kind)
    var printer = ReceivedText(
      recorder: recorder, lostAfter: reading.lightSettings?.lostAfter ?? .zero, console: console)
    do {
      while !console.hasOutputFailed(), let input = try source.next() {
        try reading.read(input) { (event) throws(EdgeRecorder.Failure) in try printer.show(event) }
      }
    } catch {
      // The last character printed however the reading ends (a video cut short prints what
      // was read before the error).
      printer.finish(reading.finish())
      throw error
    }
    printer.finish(reading.finish())
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
      receiver: receiver, light: LightReceiver(settings: light, frameInterval: picture.frameInterval))
  }
}
