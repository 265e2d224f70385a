import MorseCore

/// The statuses morsetorch exits with (sysexits.h where one fits); `--help` lists them.
enum ExitStatus {
  static let success: Int32 = 0
  /// `stop` or `status` found nothing being sent (as LSB init scripts say "not running").
  static let notRunning: Int32 = 3
  static let usage: Int32 = 64
  static let dataError: Int32 = 65
  static let unavailable: Int32 = 69
  static let software: Int32 = 70
  static let ioError: Int32 = 74
  static let temporaryFailure: Int32 = 75
  static let permissionDenied: Int32 = 77
  static let configuration: Int32 = 78

  /// The conventional status after stopping for `signal`: 128 + its number.
  static func signalled(_ signal: Int32) -> Int32 { 128 + signal }
}

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

/// The one place that turns an error into what the user reads and the status to exit with.
func failureReport(for error: any Error) -> (message: String, status: Int32) {
  switch error {
  case let error as ArgumentEncodingError:
    return (error.description, ExitStatus.dataError)
  case let failure as RestoreFailure:
    return (failure.description, failureReport(for: failure.error).status)
  case let hinted as HintedError:
    let report = failureReport(for: hinted.error)
    return (report.message + "\n" + hinted.hint, report.status)
  case let error as UsageError:
    return (error.description, ExitStatus.usage)
  case let error as TimingError:
    return (error.description, ExitStatus.usage)
  case let error as MorseError:
    return (error.description, ExitStatus.dataError)
  case let error as InputError:
    return (error.description, ExitStatus.ioError)
  case let error as TorchError:
    switch error {
    case .invalidName:
      return (error.description, ExitStatus.usage)
    case .classDirectoryMissing, .noLEDs, .ledNotFound, .vanished, .malformed:
      return (error.description, ExitStatus.unavailable)
    case .permissionDenied:
      return (error.description, ExitStatus.permissionDenied)
    case .busy:
      return (error.description, ExitStatus.temporaryFailure)
    case .io:
      return (error.description, ExitStatus.ioError)
    }
  case let error as ReservationError:
    switch error {
    case .noDirectory, .directory, .unsafeDirectory, .unsafeFile:
      return (error.description, ExitStatus.configuration)
    case .file:
      return (error.description, ExitStatus.ioError)
    case .holderDidNotStop:
      return (error.description, ExitStatus.temporaryFailure)
    }
  case let error as DetachError:
    return (error.description, ExitStatus.software)
  case let error as SignalWatcherError:
    return (error.description, ExitStatus.software)
  default:
    return ("unexpected error: \(error)", ExitStatus.software)
  }
}
