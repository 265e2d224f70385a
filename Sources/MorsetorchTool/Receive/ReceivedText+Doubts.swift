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
    case .lightAtEdge(let region):
      "doubtful: the light found at \(region) is against the picture's edge, where a border, "
        + "a shaking frame or the exposure often blinks instead: if the light is elsewhere, "
        + "say where with --region X,Y,W,H (\(traceHint))"
    case .wholePicture(let region):
      "doubtful: the light found, \(region), is most of the picture (the room's light or the "
        + "exposure changing): if a light blinks in a part of it, say where with --region "
        + "X,Y,W,H (\(traceHint))"
    case .unknownCodes(let unknown, let characters):
      "doubtful: \(unknown) of the \(characters) characters read are codes with no meaning "
        + "([...]): the speed or the light may be wrong; try --wpm N at the sender's speed, "
        + "--region X,Y,W,H for a light (\(traceHint))"
    case .longMarks(let long, let marks):
      "doubtful: \(long) of the \(marks) marks read are over \(Int(ReadDoubts.longMark)) dots "
        + "long, neither dots nor dashes (a light left on, marks run together by a short dark "
        + "between them, or the speed misread): try --wpm N at the sender's speed "
        + "(\(traceHint))"
    }
  }

  /// The closing word on a reading that raised doubts.
  static let doubtful = "the text read is doubtful: the notes above say why and what to try"

  /// The closing word on a reading with no character, when nothing else said why.
  static let nothingRead =
    "no Morse was read: no character was decoded (exit status \(ExitStatus.nothingRead)); --trace shows what was seen"

  /// `12 WPM`, `1.2 WPM`: tenths below 10.
  private static func speed(_ wordsPerMinute: Double) -> String {
    let tenths = Int((wordsPerMinute * 10).rounded())
    return tenths < 100 ? "\(tenths / 10).\(tenths % 10) WPM" : "\(tenths / 10) WPM"
  }
}
