import MorseCore
import MorsePlayer

/// Standard input, line by line (streaming), each line decoded as strict UTF-8.
enum InputLines {
  /// Calls `body` with each line (or piece of a line longer than 4 KiB: see `LinePiece`), its
  /// number and the column it starts at, until the input
  /// ends or standard output has failed (nobody reads what the lines turn into). Output that
  /// `Console` buffers is written whenever no more input is ready. A byte-order mark at the
  /// start is dropped; with `repairing`, bytes that are not UTF-8 become U+FFFD instead of
  /// an error.
  static func forEach(
    repairing: Bool = false,
    _ body: (_ text: String, _ line: Int, _ column: Int, _ piece: LinePiece) throws -> Void
  ) throws {
    // Many lines ahead: reading and converting take turns by the batch, not line by line.
    let source = try StreamLineSource(capacity: 256)
    var line = 0
    var column = 1
    while !Console.hasOutputFailed {
      // Buffered output goes out before waiting for more input: a stream shows at once.
      if !source.hasPieceReady { Console.flushOutput() }
      guard let piece = try source.nextPiece() else { break }
      if !piece.continuesLine {
        line += 1
        column = 1
      }
      let isStart = line == 1 && !piece.continuesLine
      let bytes = isStart ? UTF8Lines.droppingByteOrderMark(piece.bytes) : piece.bytes[...]
      let text =
        repairing
        ? UTF8Lines.repairing(bytes) : try UTF8Lines.decode(bytes, line: line, firstColumn: column)
      try body(text, line, column, piece)
      column += text.count
    }
  }
}
