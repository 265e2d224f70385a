import Instants
import LinuxSystem
import MorseReceiving

/// `receive --show`: a live view of the reading on the terminal of standard error, drawn in
/// place by its writer (`Console.showFrame`, as `send`'s progress line), so notes still come
/// above it and nothing on the reading's path waits for the terminal.
///
/// It takes the reading's events as they come (as `ReceiveTrace` does) and each frame read;
/// a redraw is due every `interval` of the frames' own times (a video read faster than real
/// time is drawn as often per second of video, and the writer keeps only the latest): only
/// then is the frame made small (`FrameStill`, to fit the terminal as it is then). The text
/// for the view is made on the writer's thread at the terminal's size then, so a resized
/// window is followed at the next draw.
///
/// While it is up, text for standard output is held when standard output is the terminal
/// too (written there, it would land inside the picture); `finish` erases the view, then
/// writes what was held: the screen is left with the text, not the picture.
final class ReceiveView {
  /// How often it is redrawn, in the frames' time.
  static let interval = Duration.milliseconds(200)
  /// The most of the text read kept for the view.
  private static let textKept = 400

  private var state = ReceiveViewState()
  private let palette: ReceiveViewPalette
  private let size: @Sendable () -> (columns: Int, rows: Int)
  private let show: (@escaping StreamWriter.Frame) -> Void
  private let clear: () -> Void
  private var lastDrawn: MonotonicInstant?
  /// Text for standard output held back while the view is up; nil: none is held.
  private var held: String?
  private var write: (String) -> Void = { _ in }

  /// A view in `palette`, for a terminal of `size` (asked at each draw), handing its frames
  /// to `show` and erasing them with `clear`.
  init(
    palette: ReceiveViewPalette,
    size: @escaping @Sendable () -> (columns: Int, rows: Int) = ReceiveView.errorTerminalSize,
    show: @escaping (@escaping StreamWriter.Frame) -> Void = { Console.showFrame($0) },
    clear: @escaping () -> Void = { Console.clearFrame() }
  ) {
    self.palette = palette
    self.size = size
    self.show = show
    self.clear = clear
  }

  /// The size of the terminal on standard error (80 by 24 if it does not say).
  static let errorTerminalSize: @Sendable () -> (columns: Int, rows: Int) = {
    (StandardStreams.columns(of: .error) ?? 80, StandardStreams.rows(of: .error) ?? 24)
  }

  /// `write`, but holding its text until `finish`.
  func holding(_ write: @escaping (String) -> Void) -> (String) -> Void {
    self.write = write
    held = ""
    return { [self] text in held?.append(text) }
  }

  /// Takes `event`, in the order the reading gave them.
  func add(_ event: MorseReading.Event) {
    switch event {
    case .found(let region, _), .moved(let region, _):
      state.region = region
      state.levels = nil
    case .lost: state.region = nil
    case .frame(_, let light?):
      state.level = (light.level, light.threshold)
      let low = min(state.levels?.lowerBound ?? light.level, light.level, light.threshold)
      let high = max(state.levels?.upperBound ?? light.level, light.level, light.threshold)
      state.levels = low...high
    case .classed(let classed): state.wordsPerMinute = classed.wordsPerMinute
    case .output(.text(let text)): said(TerminalText.escaped(text))
    case .output(.space): said(" ")
    case .output(.lineBreak): said(" / ")
    case .frame, .edge, .doubt, .still: break
    }
  }

  /// Takes a frame read (after its events) and the text the reading holds back then (made
  /// only when a redraw is due): redraws if one is due by its time.
  func see(_ frame: LightFrame, held: @autoclosure () -> String = "") {
    if let lastDrawn, frame.time >= lastDrawn, frame.time - lastDrawn < Self.interval { return }
    lastDrawn = frame.time
    state.held = TerminalText.escaped(held())
    let (columns, rows) = size()
    let scale = ReceiveViewPicture.scale(
      width: frame.width, height: frame.height, columns: columns, rows: rows)
    state.still = FrameStill(frame, widest: (frame.width + scale - 1) / scale)
    let (state, palette, size) = (self.state, self.palette, self.size)
    show { _ in
      let (columns, rows) = size()
      return ReceiveViewPicture.text(state, columns: columns, rows: rows, palette: palette)
    }
  }

  /// Erases the view (waiting a second at most), then writes the text held, if any.
  func finish() {
    clear()
    if let held, !held.isEmpty { write(held) }
    held = nil
  }

  private func said(_ text: String) {
    state.text += text
    if state.text.count > Self.textKept * 2 {
      state.text = String(state.text.suffix(Self.textKept))
    }
  }
}
