/// An error with a line of advice for the person at the terminal.
struct HintedError: Error {
  /// What went wrong; it decides the exit status.
  let error: any Error
  /// What to try.
  let hint: String
}
