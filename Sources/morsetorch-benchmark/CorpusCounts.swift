import MorseCorpus

/// How close a hand sender's word gaps come to its letter gaps: the shortest word gap and
/// the longest letter gap of `message` (in the sender's dots), and how many of its word gaps
/// are shorter than that letter gap (no single threshold tells those from letter gaps).
func gapMargin(_ message: ReceiverCorpus.Message)
  -> (shortestWord: Double, longestLetter: Double, overlapping: Int)
{
  let dots = { (piece: KeyedPiece) in piece.length / piece.unit }
  let longest = message.pieces.filter { $0.kind == .letterGap }.map(dots).max() ?? 0
  let words = message.pieces.filter { $0.kind == .wordGap }.map(dots)
  return (words.min() ?? .infinity, longest, words.filter { $0 < longest }.count)
}

/// Errors and characters sent in one column of the table, and whether its decoder failed to
/// run on some message.
struct ErrorCount {
  var errors = 0
  var sent = 0
  var failed = false
  /// Messages read with errors and exactly, and of each how many the decoder doubted.
  var wrong = 0
  var doubtedWrong = 0
  var exact = 0
  var doubtedExact = 0

  mutating func add(_ other: ErrorCount) {
    errors += other.errors
    sent += other.sent
    failed = failed || other.failed
    wrong += other.wrong
    doubtedWrong += other.doubtedWrong
    exact += other.exact
    doubtedExact += other.doubtedExact
  }

  /// One message's reading: `errors` in it, and whether it was doubted.
  mutating func count(errors: Int, isDoubted: Bool) {
    if errors > 0 {
      wrong += 1
      if isDoubted { doubtedWrong += 1 }
    } else {
      exact += 1
      if isDoubted { doubtedExact += 1 }
    }
  }
}

/// How close the hand-keyed messages of one condition come to mistaking a word gap for a
/// letter gap (see `gapMargin`): the word gaps shorter than their message's longest letter
/// gap, and the message whose shortest word gap is closest to its longest letter gap.
struct GapOverlaps {
  var count = 0
  var closest = (ratio: Double.infinity, text: "")

  mutating func add(_ message: ReceiverCorpus.Message, index: Int) {
    let margin = gapMargin(message)
    count += margin.overlapping
    if margin.shortestWord / margin.longestLetter < closest.ratio {
      closest = (
        margin.shortestWord / margin.longestLetter,
        String(
          format: "message %d (%.0f WPM, word gap %.2f, letter gap %.2f dots): "
            + "shortest word gap %.2f dots, longest letter gap %.2f",
          index + 1, message.wordsPerMinute, message.fist.wordGapUnits,
          message.fist.letterGapUnits, margin.shortestWord, margin.longestLetter)
      )
    }
  }

  /// The `gaps:` line of `condition`, nil when none of its messages is hand-keyed.
  func line(_ condition: ReceiverCorpus.Condition) -> String? {
    guard closest.ratio < .infinity else { return nil }
    return "\(condition.name): \(count) word gaps shorter than the longest letter gap "
      + "of their message; the closest, \(closest.text)"
  }
}
