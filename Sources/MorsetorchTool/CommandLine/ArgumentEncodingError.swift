import MorseCore

/// A command-line argument that is not valid UTF-8.
struct ArgumentEncodingError: Error, CustomStringConvertible {
  /// Which argument (1 is the first after the program name).
  let position: Int
  /// The decoding error, with the column and byte.
  let error: MorseError

  var description: String {
    guard case .invalidUTF8(_, let column, let byte) = error else { return "\(error)" }
    let hex = "0x" + String(byte, radix: 16, uppercase: true)
    return "argument \(position) is not valid UTF-8: byte \(hex) at column \(column); "
      + "check the terminal's or the script's encoding"
  }
}
