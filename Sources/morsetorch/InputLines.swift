import MorseCore
import MorsePlayer

/// Standard input, line by line (streaming), each line decoded as strict UTF-8.
enum InputLines {
  /// Calls `body` with each line and its number, until the input ends or standard output
  /// has failed (nobody reads what the lines turn into).
  static func forEach(_ body: (String, Int) throws -> Void) throws {
    let source = try StreamLineSource()
    var line = 0
    while !Console.hasOutputFailed, let bytes = try source.nextLine() {
      line += 1
      try body(try UTF8Lines.decode(bytes, line: line), line)
    }
  }
}
