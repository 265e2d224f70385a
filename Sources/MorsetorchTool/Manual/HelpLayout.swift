/// How `--help` is laid out: prose filled to the width of a terminal, and two-column lists
/// (options, variables, exit statuses) with each description wrapped under its column.
enum HelpLayout {
  /// The widest line `--help` prints.
  static let width = 80

  /// A term and what it means: an option, a variable, an exit status, a command's usage.
  struct Row: Sendable {
    let term: String
    let text: String

    init(_ term: String, _ text: String) {
      self.term = term
      self.text = text
    }
  }

  /// `text` with each paragraph that starts at the margin filled to `width`; indented
  /// blocks (lists, examples) are kept as they are.
  static func filled(_ text: String) -> String {
    text.split(separator: "\n\n", omittingEmptySubsequences: false).map { block in
      block.split(separator: "\n").contains { $0.hasPrefix(" ") }
        ? String(block) : lines(words(block), indent: 0, first: 0).joined(separator: "\n")
    }.joined(separator: "\n\n")
  }

  /// `rows` indented by two, each description starting at `column` and wrapped under it; a
  /// term too long for its column has its description start on the next line.
  static func table(_ rows: [Row], column: Int) -> String {
    rows.flatMap { row in
      let term = "  " + row.term
      let fits = term.count + 2 <= column
      var wrapped = lines(words(row.text), indent: column, first: column)
      if fits {
        wrapped[0] = term + String(wrapped[0].dropFirst(term.count))
      } else {
        wrapped.insert(term, at: 0)
      }
      return wrapped
    }.joined(separator: "\n")
  }

  /// The words of `text`, whatever spaces and line breaks were between them.
  static func words(_ text: some StringProtocol) -> [Substring] {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { Substring($0) }
  }

  /// `words` in lines of at most `width` columns (a longer word alone on its line), each
  /// indented by `indent` (the first by `first`).
  static func lines(
    _ words: [Substring], indent: Int, first: Int, width: Int = width
  ) -> [String] {
    var lines: [String] = []
    var line = String(repeating: " ", count: first)
    var isEmpty = true
    for word in words {
      if !isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = String(repeating: " ", count: indent)
        isEmpty = true
      }
      line += (isEmpty ? "" : " ") + word
      isEmpty = false
    }
    return lines + [line]
  }
}
