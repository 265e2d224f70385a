import Glibc
import MorseCore
import Testing

@testable import morsetorch

/// An error none of morsetorch's families covers.
private struct StrangeError: Error, CustomStringConvertible {
  var description: String { "strange" }
}

/// One error of each kind, with the status it must exit with.
private let errorsAndStatuses: [(error: any Error & CustomStringConvertible, status: Int32)] = [
  (UsageError.missingCommand, 64),
  (UsageError.unknownOption("--x", command: "send"), 64),
  (UsageError.conflictingOptions("--wpm", "--unit"), 64),
  (TimingError.wordsPerMinuteOutOfRange(0), 64),
  (TimingError.unitOutOfRange(0), 64),
  (TorchError.invalidName("../x"), 64),
  (MorseError.unsendable(UnsendableCharacter(character: "€", line: 1, column: 2)), 65),
  (MorseError.invalidUTF8(line: 1, column: 2, byte: 0xFF), 65),
  (MorseError.unknownCode("........-", line: 1, column: 1), 65),
  (MorseError.unclosedProsign(line: 1, column: 1), 65),
  (TorchError.classDirectoryMissing(path: "/nowhere"), 69),
  (TorchError.noLEDs(directory: "/leds"), 69),
  (TorchError.ledNotFound("x", available: ["a", "b"]), 69),
  (TorchError.vanished(path: "/leds/a/brightness", errno: Errno(code: ENODEV)), 69),
  (TorchError.malformed(path: "/leds/a/max_brightness", content: "lots"), 69),
  (InputError.readFailed(Errno(code: EIO)), 74),
  (TorchError.io(operation: "write", path: "/leds/a/brightness", errno: Errno(code: EIO)), 74),
  (TorchError.busy(path: "/leds/a/brightness"), 75),
  (TorchError.permissionDenied(path: "/leds/a/trigger", errno: Errno(code: EACCES)), 77),
  (ReservationError.noDirectory, 78),
  (ReservationError.directory(path: "/run/morsetorch", errno: Errno(code: EACCES)), 78),
  (ReservationError.unsafeDirectory(path: "/tmp/x", reason: "everyone may write in it"), 78),
  (ReservationError.unsafeFile(path: "/run/morsetorch/a.lock", reason: "a symlink"), 78),
  (
    ReservationError.file(
      operation: "lock", path: "/run/morsetorch/a.lock", errno: Errno(code: EIO)), 74
  ),
  (ReservationError.holderDidNotStop(pid: 42, led: "white:flash"), 75),
  (SignalWatcherError.pipeFailed(errno: EMFILE), 70),
]

@Suite("failureReport")
struct ExitStatusTests {
  @Test(arguments: errorsAndStatuses.indices)
  func everyErrorFamilyMapsToItsStatusAndMessage(_ index: Int) {
    let (error, status) = errorsAndStatuses[index]
    let report = failureReport(for: error)
    #expect(report.status == status, "\(error)")
    #expect(report.message == error.description)
  }

  @Test func statusConstantsAreSysexits() {
    #expect(ExitStatus.success == 0)
    #expect(ExitStatus.notRunning == 3)
    #expect(ExitStatus.usage == 64)
    #expect(ExitStatus.dataError == 65)
    #expect(ExitStatus.unavailable == 69)
    #expect(ExitStatus.software == 70)
    #expect(ExitStatus.ioError == 74)
    #expect(ExitStatus.temporaryFailure == 75)
    #expect(ExitStatus.permissionDenied == 77)
    #expect(ExitStatus.configuration == 78)
    #expect(ExitStatus.signalled(SIGHUP) == 129)
    #expect(ExitStatus.signalled(SIGINT) == 130)
    #expect(ExitStatus.signalled(SIGTERM) == 143)
  }

  @Test func hintedErrorKeepsTheStatusOfItsErrorAndAddsTheHint() {
    let hinted = HintedError(
      error: TorchError.noLEDs(directory: "/leds"), hint: "name one with --led NAME")
    let report = failureReport(for: hinted)
    #expect(report.status == 69)
    #expect(
      report.message == TorchError.noLEDs(directory: "/leds").description + "\n"
        + "name one with --led NAME")
  }

  @Test func hintedUsageErrorIsStillAUsageError() {
    let report = failureReport(for: HintedError(error: UsageError.missingCommand, hint: "try"))
    #expect(report.status == 64)
  }

  @Test func unexpectedErrorIsASoftwareError() {
    let report = failureReport(for: StrangeError())
    #expect(report.status == 70)
    #expect(report.message.contains("strange"))
  }

  @Test func signalNames() {
    #expect(signalName(SIGINT) == "SIGINT")
    #expect(signalName(SIGTERM) == "SIGTERM")
    #expect(signalName(SIGHUP) == "SIGHUP")
    #expect(signalName(SIGUSR1) == "signal \(SIGUSR1)")
  }

  @Test func onlyAMissingOrEmptyClassDirectoryMeansNoLED() {
    #expect(TorchError.classDirectoryMissing(path: "/x").isNoLED)
    #expect(TorchError.noLEDs(directory: "/x").isNoLED)
    #expect(!TorchError.ledNotFound("a", available: []).isNoLED)
    #expect(!TorchError.busy(path: "/x").isNoLED)
  }
}
