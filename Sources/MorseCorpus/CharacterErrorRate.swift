/// Levenshtein distance: the fewest characters inserted, deleted or replaced to turn `a`
/// into `b`.
public func editDistance(_ a: [Character], _ b: [Character]) -> Int {
  var previous = Array(0...b.count)
  for (i, x) in a.enumerated() {
    var current = [i + 1]
    for (j, y) in b.enumerated() {
      current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
    }
    previous = current
  }
  return previous[b.count]
}

/// `text` as it is compared for the error rate: upper case, every run of spaces and line
/// breaks one space, none at either end.
public func normalizedForErrorRate(_ text: String) -> [Character] {
  Array(
    text.uppercased().split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
      .joined(separator: " "))
}

/// The character errors of `read` against `sent` (edit distance, both normalized) and the
/// number of characters sent: their quotient is the character error rate.
public func characterErrors(read: String, sent: String) -> (errors: Int, sent: Int) {
  let sentCharacters = normalizedForErrorRate(sent)
  return (editDistance(sentCharacters, normalizedForErrorRate(read)), sentCharacters.count)
}
