import GPIODriver
import LEDDriver
import LinuxSystem
import MorseCore
import MorsePlayer
import MorseReceiving
import ReceiveSources
import TransmitterControl

/// The one place that turns an error into what the user reads and the status to exit with.
///
/// The libraries' messages speak of text, devices and files; this is where the advice that
/// names the command line (an option, another command) is added. An empty message means
/// nothing is printed (standard output closed by its reader, as with `| head`).
// A table, one case per error family (over 60 lines, as a table may be).
func failureReport(for error: any Error) -> (message: String, status: Int32) {
  if let limit = descriptorLimitReport(error) { return limit }
  // A device's driver's error: its kind's home says it.
  for home in deviceHomes {
    if let report = home.report(ifOwn: error) { return report }
  }
  switch error {
  case let error as ArgumentEncodingError:
    return (error.description, ExitStatus.dataError)
  case let failure as RestoreFailure:
    return (
      restoreFailureMessage(failure),
      failureReport(for: failure.error ?? failure.restoreError).status
    )
  case let failure as LeftoverRestoreFailure:
    return leftoverReport(failure)
  case let hinted as HintedError:
    let report = failureReport(for: hinted.error)
    return (report.message + "\n" + hinted.hint, report.status)
  case let error as UsageError:
    return (error.description, ExitStatus.usage)
  case let error as TimingError:
    return (error.commandLineDescription, ExitStatus.usage)
  case let error as MorseError:
    return (error.description + error.commandLineAdvice, ExitStatus.dataError)
  case let error as EdgeText.Problem:
    return (error.description, ExitStatus.dataError)
  case let error as InputError:
    return (inputMessage(error), ExitStatus.ioError)
  case let error as VideoError:
    switch error {
    case .readFailed: return (error.description, ExitStatus.ioError)
    case .decoderMissing: return (error.description, ExitStatus.unavailable)
    default: return (error.description, ExitStatus.dataError)
    }
  case let error as CameraError:
    return cameraReport(error)
  case let error as EdgeRecorder.Failure:
    switch error {
    case .cannotCreate, .noReader: return (error.description, ExitStatus.cannotCreate)
    case .cannotWrite: return (error.description, ExitStatus.ioError)
    }
  case let error as OutputFile.Failure:
    switch error {
    case .cannotCreate, .notAFile: return (error.description, ExitStatus.cannotCreate)
    case .cannotWrite: return (error.description, ExitStatus.ioError)
    }
  case let error as OutputError:
    return error.isBrokenPipe ? ("", ExitStatus.success) : (error.description, ExitStatus.ioError)
  case let error as LEDVariableError:
    let report = LEDHome.report(error.error)
    return ("\(LEDVariableError.variable) names no LED: " + report.message, report.status)
  case let error as ControlError:
    return controlReport(error)
  case let error as DetachError:
    return (error.description, ExitStatus.software)
  case let error as SystemLimitError:
    return (error.description, ExitStatus.systemError)
  case let error as Errno:
    // A thread, a pipe or a signal handler that could not be had: a limit, or a fault.
    guard let limit = SystemLimitError(unwrapped: error) else {
      return ("a system call failed unexpectedly: \(error)", ExitStatus.software)
    }
    return (limit.description, ExitStatus.systemError)
  default:
    return ("unexpected error: \(error)", ExitStatus.software)
  }
}

/// A leftover claim that could not be put back: why, and the two ways out.
private func leftoverReport(_ failure: LeftoverRestoreFailure) -> (message: String, status: Int32) {
  let report = failureReport(for: failure.error)
  let option = failure.device.kind.home.controlOption.flag
  return (
    "\(DeviceNames.naming([failure.device])) was left claimed by morsetorch pid "
      + "\(failure.pid), and putting it back from its state record failed: \(report.message)\n"
      + "Fix that and run `morsetorch stop \(option) \(DeviceNames.shown(failure.device))`, "
      + "or remove \(failure.recordPath) to give up restoring it.",
    report.status
  )
}

/// What could not be read; a closed standard input (`<&-`, read as `EBADF`) says so.
private func inputMessage(_ error: InputError) -> String {
  guard case .readFailed(.badFileDescriptor) = error else { return error.description }
  return error.description + "; standard input is closed (or not open for reading): pipe the "
    + "input in, or give it on the command line"
}

/// An area's error whose cause is that no descriptor was free (`EMFILE`, `ENFILE`): a limit
/// of the system (71) with the limit named, not the I/O error (74) it would otherwise be.
private func descriptorLimitReport(_ error: any Error) -> (message: String, status: Int32)? {
  let errno: Errno
  switch error {
  case ControlError.file(_, _, let code), InputError.cannotOpen(_, let code):
    errno = code
  default:
    guard let code = deviceHomes.lazy.compactMap({ $0.ioErrno(of: error) }).first else {
      return nil
    }
    errno = code
  }
  guard let limit = SystemLimitError.descriptorLimit(for: errno) else { return nil }
  let advice = limit.prefix(1).uppercased() + limit.dropFirst() + "."
  return ("\(error)\n" + advice, ExitStatus.systemError)
}

private func cameraReport(_ error: CameraError) -> (message: String, status: Int32) {
  switch error {
  case .notFound, .noCamera, .notAVideoDevice, .unusable, .vanished:
    return (error.description, ExitStatus.unavailable)
  case .permissionDenied(let path):
    return PermissionAdvice.report(
      error.description, DeviceAccess.cameras, path: path, errno: .permissionDenied)
  case .busy:
    return (error.description, ExitStatus.temporaryFailure)
  case .failed, .restoreFailed:
    return (error.description, ExitStatus.ioError)
  }
}

private func controlReport(_ error: ControlError) -> (message: String, status: Int32) {
  switch error {
  case .directory, .unsafeDirectory, .unsafeFile, .notShared:
    return (error.description, ExitStatus.configuration)
  case .file(_, _, let errno) where isUnusableDirectory(errno):
    // The directory itself will not do: read-only, full, not ours to write, a symlink or a
    // file in the way. That is how it is set up, not a passing I/O error.
    return (
      error.description + "; set \(RuntimeDirectory.environmentVariable) to a directory you "
        + "may write (man morsetorch, PERMISSIONS)", ExitStatus.configuration
    )
  case .file:
    return (error.description, ExitStatus.ioError)
  case .holderDidNotStop, .lockNotHeldByProcess, .lockFileMoved, .ticketsLockHeld,
    .recordOfAnotherUser:
    return (error.description, ExitStatus.temporaryFailure)
  case .nameTooLong:
    return (error.description, ExitStatus.unavailable)
  }
}

/// The error first, then each failed restore with where its state is kept; a restore only if
/// it says something new (an LED that vanished cannot be restored either).
private func restoreFailureMessage(_ failure: RestoreFailure) -> String {
  let hasVanished = { (error: any Error) in deviceHomes.contains { $0.hasVanished(error) } }
  let restores = failure.failed.compactMap { device -> String? in
    if let error = failure.error, hasVanished(error), hasVanished(device.error) { return nil }
    return "restoring \(DeviceNames.naming([device.device])) failed: "
      + failureReport(for: device.error).message
      + "\nIts saved state is kept in \(device.recordPath): the next morsetorch on this "
      + "\(device.device.noun()) tries again (`morsetorch stop` does it at once)."
  }
  let first = failure.error.map { [failureReport(for: $0).message] } ?? []
  return (first + restores).joined(separator: "\nalso, ")
}

extension MorseError {
  /// What the command line offers for this error: `--skip-unknown`, the alphabet's help.
  fileprivate var commandLineAdvice: String {
    let alphabet = "(see `morsetorch alphabet`)"
    switch self {
    case .unsendable:
      return "; remove it or use --skip-unknown to drop it \(alphabet)"
    case .unknownCode(let code, _, _) where code.allSatisfy({ $0 == "." || $0 == "-" }):
      return " \(alphabet)"
    case .invalidUTF8:
      return " (for example `iconv -f LATIN1 -t UTF-8`)"
    default:
      return ""
    }
  }
}

extension TimingError {
  /// The error in terms of the options that set the speed.
  fileprivate var commandLineDescription: String {
    let speeds = MorseTiming.wordsPerMinuteRange
    switch self {
    case .wordsPerMinuteOutOfRange(let value):
      return "--wpm \(value) is out of range: use \(speeds.lowerBound) to \(speeds.upperBound)"
    case .farnsworthOutOfRange(let value):
      return
        "--farnsworth \(value) is out of range: use \(speeds.lowerBound) to \(speeds.upperBound)"
    case .farnsworthFasterThanCharacters(let farnsworth, let wordsPerMinute):
      return "--farnsworth \(farnsworth) is faster than --wpm \(wordsPerMinute): "
        + "Farnsworth timing only stretches the gaps, so use a value up to \(wordsPerMinute)"
    case .unitOutOfRange(let value):
      let range = MorseTiming.unitMillisecondsRange
      return "--unit \(value) is out of range: use \(range.lowerBound) to \(range.upperBound) ms"
    }
  }
}

/// The errors that mean a runtime directory cannot hold morsetorch's files at all.
private func isUnusableDirectory(_ errno: Errno) -> Bool {
  [
    Errno.permissionDenied, .notPermitted, .readOnlyFileSystem, .noSpace, .tooManySymbolicLinks,
    .isDirectory, .notDirectory, .diskQuotaExceeded,
  ].contains(errno)
}
