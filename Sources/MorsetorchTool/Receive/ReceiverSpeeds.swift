import MorseReceiving

/// The speeds the receiver follows, as its settings set them: every text and check of
/// `receive` (the options' help, their errors, the manual, the doubts) says them from here.
enum ReceiverSpeeds {
  /// The range, in whole words per minute: 1 to 60.
  static let range =
    Int(MorseReceiver.Settings().minimumWPM)...Int(MorseReceiver.Settings().maximumWPM)

  /// "1-60".
  static let span = "\(range.lowerBound)-\(range.upperBound)"
  /// "1 to 60".
  static let spelled = "\(range.lowerBound) to \(range.upperBound)"
  /// "a whole number from 1 to 60", what `--wpm` and `--farnsworth` take.
  static let expected = "a whole number from \(spelled)"
}
