import Instants
import MorseCore
import MorseReceiving
import ReceiveSources

/// What `receive` says of a reading: the text on standard output as it comes, a line ended
/// at the end; each edge to the `--edges-out` file; where the light is found, moves or is
/// lost on standard error. The wording is here; `MorseReading` gives the values.
struct ReceivedText {
  /// `--edges-out`: where each edge is also written.
  private let recorder: EdgeRecorder?
  /// How long a light may show no edge before it is lost: said when it is.
  private let lostAfter: Duration
  private let console: ReceiveConsole
  private var isLineOpen = false
  private var isFinished = false

  /// Says what a reading gives on `console`, with edges also to `recorder`; a light is lost
  /// after `lostAfter` without an edge.
  init(
    recorder: EdgeRecorder? = nil, lostAfter: Duration = LightReceiver.Settings().lostAfter,
    console: ReceiveConsole = ReceiveConsole()
  ) {
    self.recorder = recorder
    self.lostAfter = lostAfter
    self.console = console
  }

  /// Says `event`: an edge is written to the `--edges-out` file, text printed, the light's
  /// doings noted.
  mutating func show(_ event: MorseReading.Event) throws(EdgeRecorder.Failure) {
    switch event {
    case .edge(let edge): try recorder?.record(edge)
    case .output(let output): print(output)
    case .found(let region, let time):
      console.note("light found at \(region) at \(Self.seconds(time))")
    case .moved(let region, let time):
      console.note("light moved to \(region) at \(Self.seconds(time))")
    case .lost(let region, let time):
      console.note(
        "light lost at \(region) at \(Self.seconds(time)) (no blinking for "
          + "\(Self.seconds(lostAfter))); looking for it again")
    case .doubt(let doubt): console.note(Self.said(doubt))
    case .classed, .frame, .still: break  // drawn by --trace, not said
    }
  }

  /// The last character and the doubts only the end tells (`events`), and the end of the
  /// line; once.
  mutating func finish(_ events: [MorseReading.Event]) {
    guard !isFinished else { return }
    isFinished = true
    for event in events {
      switch event {
      case .output(let output): print(output)
      case .doubt(let doubt): console.note(Self.said(doubt))
      // Drawn by --trace, not said.
      case .classed: break
      // Not given at the end: what a frame or an edge gives.
      case .edge, .found, .moved, .lost, .frame, .still: break
      }
    }
    if isLineOpen { console.write("\n") }
  }

  /// The closing word once a reading has ended normally: why nothing was read (no light in
  /// the frames of `picture`, no frame, no character). A doubtful reading was said so
  /// already, each reason once.
  func sayEnd(of reading: MorseReading, picture: ReceivedPicture?) {
    if let picture, say(reading.sighting, of: picture) { return }
    if reading.characters == 0 { console.note(Self.nothingRead) }
  }

  /// Says so when no light was found in all the frames of `picture`, or no frame came (else
  /// the output is empty, and nothing says why); whether it said anything.
  private func say(_ sighting: MorseReading.Sighting, of picture: ReceivedPicture) -> Bool {
    switch sighting {
    case .noFrames, .found: return false
    case .noFrame: console.note(picture.noFrame)
    case .notFound(let watched, let region?):
      console.note(
        "the region \(region) did not blink in the \(picture.watched(Self.seconds(watched))): "
          + "check --region against the picture (X,Y from its top left corner)")
    case .notFound(let watched, nil):
      console.note(
        "no light blinking Morse was seen in the \(picture.watched(Self.seconds(watched))); "
          + "if one is there, say where with --region X,Y,W,H (flicker, a moving or busy "
          + "picture can hide it)")
    }
    return true
  }

  private mutating func print(_ output: MorseReceiver.Output) {
    switch output {
    case .text(let text):
      console.write(TerminalText.escaped(text))
      isLineOpen = true
    case .space:
      console.write(" ")
    case .lineBreak:
      console.write("\n")
      isLineOpen = false
    }
  }

  /// `12.3 s`.
  static func seconds(_ time: Duration) -> String {
    let tenths = Int((time / .milliseconds(100)).rounded())
    return "\(tenths / 10).\(tenths % 10) s"
  }
}

/// Where `receive` speaks: text to standard output, notes to standard error, and whether
/// output has failed (nobody reads it: the reading stops). A test puts its own in their
/// place.
struct ReceiveConsole {
  /// Writes text as it comes.
  var write: (String) -> Void = { Console.write($0) }
  /// Says a note on a line of its own.
  var note: (String) -> Void = { Console.note($0) }
  /// Whether what was written could not be: then reading on is pointless.
  var hasOutputFailed: () -> Bool = { Console.hasOutputFailed }
}
