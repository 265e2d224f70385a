import MorseReceiving

/// How `receive` words what makes a reading doubtful (`ReadDoubts`), and what to try.
extension ReceivedText {
  /// What shows the marks and gaps as they were seen, to check a doubtful reading.
  private static let traceHint = "--trace shows the marks and gaps as they were seen"

  /// `doubt`, said as it is found, with what to try.
  static func said(_ doubt: ReadDoubts.Doubt) -> String {
    switch doubt {
    case .slowSpeed(let wpm):
      "doubtful: read at \(speed(wpm)), at the slow end of what the receiver follows "
        + "(\(ReceiverSpeeds.span) WPM): a dash may have been "
        + "taken for a dot, or a pause for a mark; give the sender's speed with --wpm N "
        + "(\(traceHint))"
    case .fastSpeed(let wpm):
      "doubtful: read at \(speed(wpm)), at the fast end of what the receiver follows "
        + "(\(ReceiverSpeeds.span) WPM): flicker or noise may "
        + "have been read as Morse; give the sender's speed with --wpm N, for a light also its "
        + "place with --region X,Y,W,H (\(traceHint))"
    case .unsure(let unsure, let characters):
      "doubtful: \(unsure) of the \(characters) characters read could as well be read "
        + "otherwise (another reading of them nearly as likely) or mean nothing ([...]): "
        + "give the sender's speed with --wpm N (and --farnsworth N if its letters are spaced "
        + "wide), for a light its place with --region X,Y,W,H (\(traceHint))"
    case .longMarks(let long, let marks):
      "doubtful: \(long) of the \(marks) marks read are over \(Int(ReadDoubts.longMark)) dots "
        + "long, neither dots nor dashes (a light left on, marks run together by a short dark "
        + "between them, or the speed misread): try --wpm N at the sender's speed "
        + "(\(traceHint))"
    }
  }

  /// The closing word on a reading with no character, when nothing else said why.
  static let nothingRead =
    "no Morse was read: no character was decoded (exit status \(ExitStatus.nothingRead)); --trace shows what was seen"

  /// `12 WPM`, `1.2 WPM`: tenths below 10.
  private static func speed(_ wordsPerMinute: Double) -> String {
    let tenths = Int((wordsPerMinute * 10).rounded())
    return tenths < 100 ? "\(tenths / 10).\(tenths % 10) WPM" : "\(tenths / 10) WPM"
  }
}
