import MorseCore
import MorsePlayer

/// Standard input, line by line (streaming), each line decoded as strict UTF-8.
enum InputLines {
  /// Calls `body` with each line and its number, until the input ends or standard output
  /// has failed (nobody reads what the lines turn into). A byte-order mark at the start is
  /// dropped; with `repairing`, bytes that are not UTF-8 become U+FFFD instead of an error.
  static func forEach(repairing: Bool = false, _ body: (String, Int) throws -> Void) throws {
    let source = try StreamLineSource()
    var line = 0
    while !Console.hasOutputFailed, let bytes = try source.nextLine() {
      line += 1
      let text = line == 1 ? UTF8Lines.droppingByteOrderMark(bytes) : bytes[...]
      try body(repairing ? UTF8Lines.repairing(text) : try UTF8Lines.decode(text, line: line), line)
    }
  }
}
