import LinuxSystem
import MorseReceiving

/// Where `receive` reads from, once open: a file of edges, a GPIO line, a video, a camera.
/// One loop (`ReceiveLoop`) reads them all, so a new source is one new type.
///
/// A source owns everything of its own: opening, its stop conditions (a `OneShotEvent` fired
/// by a signal or `--timeout`, a deadline), and closing, with whatever it changed put back.
/// It gives inputs until it ends; what they turn into is `MorseReading`'s business.
public protocol ReceiveSource: AnyObject {
  /// What it gives: edges, or frames of a picture (known once it is open).
  var kind: ReceiveSourceKind { get }
  /// The next input: an edge, a frame, or the time now with nothing read (so silence ends
  /// characters); nil at its end or once it has been stopped.
  func next() throws -> MorseReading.Input?
  /// What to say once it has ended normally, before it is closed (a camera's dropped
  /// frames).
  func endingNotes() -> [String]
  /// Closes it, putting back what it changed; called once, however the reading ended.
  func close() throws
}

extension ReceiveSource {
  /// Nothing to say.
  public func endingNotes() -> [String] { [] }
  /// Nothing to put back: what it holds closes with it.
  public func close() throws {}

  /// `FILE` to read, `-` standard input. Non-blocking: open(2) of a FIFO would otherwise
  /// wait for a writer, deaf to signals and to --timeout; the readers poll before each read.
  static func openInput(_ path: String) throws(InputError) -> FileDescriptor {
    do throws(Errno) {
      return path == "-"
        ? .standardInput : try FileDescriptor.open(path, [.readOnly, .nonBlocking])
    } catch {
      throw .cannotOpen(path: path, errno: error)
    }
  }
}

/// What a source gives: the loop makes a reading to suit.
public enum ReceiveSourceKind {
  /// Timed levels: a pin, a file of edges.
  case edges
  /// Frames of a picture: a light is found in them.
  case frames(ReceivedPicture)

  /// The picture, for a source of frames.
  public var picture: ReceivedPicture? {
    guard case .frames(let picture) = self else { return nil }
    return picture
  }
}

/// A source's picture: what the light receiver needs before the first frame, and how notes
/// and errors name it.
public struct ReceivedPicture {
  /// Pixels in a row.
  public let width: Int
  /// Rows.
  public let height: Int
  /// The time from one frame to the next.
  public let frameInterval: Duration
  /// How long each frame is exposed, if known (else the whole frame interval).
  public var exposure: Duration? = nil
  /// Where the picture comes from: what the messages about it say.
  public let origin: Origin

  /// Where a picture comes from.
  public enum Origin {
    /// A video, a file or a stream.
    case video
    /// A camera, watching.
    case camera
  }

  /// Said once it is open and the region checked (a camera's set-up), if anything.
  public var openingNote: String? = nil

  public init(
    width: Int, height: Int, frameInterval: Duration, exposure: Duration? = nil, origin: Origin,
    openingNote: String? = nil
  ) {
    self.width = width
    self.height = height
    self.frameInterval = frameInterval
    self.exposure = exposure
    self.origin = origin
    self.openingNote = openingNote
  }
}
