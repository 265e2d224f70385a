/// How the words of a command line are told apart and read, whatever the command.
enum OptionWords {
  /// `words` as a list in a sentence: "a, b or c".
  static func listed(_ words: [String]) -> String {
    words.count < 2
      ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
  }

  /// Whether `word` is `-x` or `--name`: a dash or two, then a letter.
  static func looksLikeOption(_ word: String) -> Bool {
    let name = word.hasPrefix("--") ? word.dropFirst(2) : word.dropFirst()
    guard word.hasPrefix("-"), let first = name.first else { return false }
    return first.isASCII && first.isLetter
  }

  /// The number `text` is when it is nothing but ASCII decimal digits (no sign, space,
  /// underscore or base prefix, which `Int(_:)` would take in part); nil otherwise, or when
  /// it does not fit an `Int`. The one way an option's number is read.
  static func wholeNumber(_ text: some StringProtocol) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
      return nil
    }
    return Int(text)
  }

  /// The one of `candidates` that `word` most likely mistypes: at most two edits away (one for
  /// words of up to four letters), or `word` is the start of it; nil if none or several are.
  static func closest(to word: String, among candidates: [String]) -> String? {
    let typed = Array(word.lowercased())
    guard !typed.isEmpty else { return nil }
    let limit = typed.count <= 4 ? 1 : 2
    let scored = candidates.map { candidate -> (String, Int) in
      let other = Array(candidate)
      let isStart = other.count > typed.count && Array(other.prefix(typed.count)) == typed
      return (candidate, isStart ? 1 : editDistance(typed, other))
    }.filter { $0.1 <= limit }
    guard let best = scored.map(\.1).min() else { return nil }
    let tied = scored.filter { $0.1 == best }
    return tied.count == 1 ? tied[0].0 : nil
  }

  /// Levenshtein distance, with a swap of two neighbours as one edit.
  private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var best = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          best = min(best, table[i - 2][j - 2] + 1)
        }
        table[i][j] = best
      }
    }
    return table[a.count][b.count]
  }
}
