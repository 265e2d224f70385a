/// What is said of one command: `--help` prints its usage, summary and options, and points
/// to the manual, which prints all of it.
struct CommandHelp: Sendable {
  typealias Row = HelpLayout.Row

  /// The usage after "morsetorch ", on one line: `send [options] [TEXT...]`.
  let usage: String
  /// What the command does, in a sentence or two: the start of `--help` and of its section.
  let summary: String
  /// The rest of its description, for the manual: paragraphs apart by blank lines.
  let details: String
  /// Its options, in the order both list them.
  let options: [OptionSpec]
  /// The variables it reads.
  var environment: [Row] = []
  /// The statuses it can exit with, some with a narrower meaning than the general one.
  let statuses: [Row]

  /// The column the options' lines of help start in.
  static let optionColumn = 24

  /// Its `--help`: usage, summary, options, and where the rest is.
  var text: String {
    let usage = HelpLayout.lines(
      HelpLayout.words("Usage: morsetorch " + usage), indent: 7, first: 0)
    let summary = HelpLayout.filled(summary)
    return """
      \(usage.joined(separator: "\n"))

      \(summary)

      Options:
      \(optionLines)

      \(HelpLayout.filled(HelpText.manualPointer))
      """
  }

  /// The options as a list, each line of help under the column after the longest usual term.
  private var optionLines: String {
    HelpLayout.table(
      options.map { spec in
        var term = spec.shortName.map { "-\($0), " } ?? ""
        term += "--\(spec.name)"
        if let value = spec.valueName { term += " \(value)" }
        return Row(term, spec.help)
      }, column: Self.optionColumn)
  }

  /// The paragraphs the manual prints under its heading: the summary, then the details.
  var paragraphs: [String] {
    [summary] + details.split(separator: "\n\n").map(String.init)
  }
}
