/// `receive --trace FILE`: where the picture of the reading goes (an `OutputFile`, opened
/// before reading starts), written once, at the end, a row at a time.
final class TraceFile {
  typealias Failure = OutputFile.Failure

  private let output: OutputFile
  private var isWritten = false

  /// Creates (or empties) `path`, mode 0644; `-` is standard output.
  init(path: String) throws(Failure) {
    output = try OutputFile(path: path, option: "--trace")
  }

  /// Whether it writes to standard output (where the text read then does not go).
  var isStandardOutput: Bool { output.isStandardOutput }

  /// Writes `picture`, part by part (so its whole text is never held); once.
  func write(_ picture: TraceSVG) throws {
    guard !isWritten else { return }
    isWritten = true
    if isStandardOutput {
      picture.draw { Console.write($0) }
      return
    }
    try picture.draw { part in try output.write(Array(part.utf8)) }
  }
}
