import GPIODriver
import Glibc
import LEDDriver
import LinuxSystem
import MorseCore
import MorsePlayer
import ReceiveSources
import SerialDriver
import SoundDriver
import Testing
import TransmitterControl

@testable import MorseReceiving
@testable import MorsetorchTool

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
  (LEDError.invalidName("../x"), 64),
  (MorseError.unsendable(UnsendableCharacter(character: "€", line: 1, column: 2)), 65),
  (MorseError.invalidUTF8(line: 1, column: 2, byte: 0xFF), 65),
  (MorseError.unknownCode("........-", line: 1, column: 1), 65),
  (LEDError.classDirectoryMissing(path: "/nowhere"), 69),
  (LEDError.noLEDs(directory: "/leds"), 69),
  (LEDError.ledNotFound("x", available: ["a", "b"]), 69),
  (LEDError.vanished(path: "/leds/a/brightness", errno: Errno(code: ENODEV)), 69),
  (LEDError.malformed(path: "/leds/a/max_brightness", content: "lots"), 69),
  (InputError.readFailed(Errno(code: EIO)), 74),
  (LEDError.io(operation: "write", path: "/leds/a/brightness", errno: Errno(code: EIO)), 74),
  (LEDError.busy(path: "/leds/a/brightness"), 75),
  (LEDError.permissionDenied(path: "/leds/a/trigger", errno: Errno(code: EACCES)), 77),
  (ControlError.directory(path: "/run/morsetorch", errno: Errno(code: EACCES)), 78),
  (ControlError.unsafeDirectory(path: "/tmp/x", reason: "everyone may write in it"), 78),
  (ControlError.unsafeFile(path: "/run/morsetorch/a.lock", reason: "a symlink"), 78),
  (ControlError.recordOfAnotherUser(device: "a", pid: 42, writerID: 1234), 75),
  (
    ControlError.file(
      operation: "lock", path: "/run/morsetorch/a.lock", errno: Errno(code: EIO)), 74
  ),
  (ControlError.holderDidNotStop(pid: 42, device: "white:flash", reason: "it is stopped"), 75),
  (
    ControlError.ticketsLockHeld(path: "/run/morsetorch/a.tickets", pid: 42, patience: .seconds(2)),
    75
  ),
  (Errno(code: EINVAL), 70),
  (SystemLimitError.commandLineUnreadable(Errno(code: EMFILE)), 71),
  (OutputError(errno: Errno(code: EBADF)), 74),
  // The families of receive, GPIO, the command line's encoding and --detach.
  (
    ArgumentEncodingError(position: 2, error: .invalidUTF8(line: 1, column: 3, byte: 0xFF)),
    65
  ),
  (EdgeText.Problem(line: 4, reason: "no level"), 65),
  (VideoError.notY4M(found: "\"RIFF\""), 65),
  (VideoError.readFailed(Errno(code: EIO)), 74),
  (CameraError.notFound(path: "/dev/video9", available: []), 69),
  (CameraError.busy(path: "/dev/video0"), 75),
  (CameraError.failed(operation: "start", path: "/dev/video0", errno: Errno(code: EIO)), 74),
  (EdgeRecorder.Failure.cannotCreate(path: "/x/edges", errno: Errno(code: ENOENT)), 73),
  (EdgeRecorder.Failure.cannotWrite(path: "/x/edges", errno: Errno(code: ENOSPC)), 74),
  (OutputFile.Failure.notAFile(path: "/x/fifo", option: "--trace"), 73),
  (
    OutputFile.Failure.cannotWrite(path: "/x/t.svg", option: "--trace", errno: Errno(code: ENOSPC)),
    74
  ),
  (
    OutputFile.Failure.cannotCreate(path: "/x/a.wav", option: "--wav", errno: Errno(code: EACCES)),
    73
  ),
  (GPIOError.chipNotFound("gpiochip9", available: ["gpiochip0"]), 69),
  (GPIOError.lineBusy(chip: "gpiochip0", offset: 17, consumer: "other"), 75),
  (GPIOError.io(operation: "read", path: "/dev/gpiochip0", errno: Errno(code: EIO)), 74),
  (LEDVariableError(error: .ledNotFound("nope", available: [])), 69),
  (SerialError.invalidAddress(""), 64),
  (SerialError.notAnOutput(.cts, path: "/dev/ttyS0"), 64),
  (SerialError.portNotFound(path: "/dev/ttyUSB9", available: ["/dev/ttyS0"]), 69),
  (SerialError.noModemLines(path: "/dev/pts/1"), 69),
  (SerialError.busy(path: "/dev/ttyS0"), 75),
  (SerialError.lockedBy(path: "/dev/ttyS0", lockFile: "/run/lock/LCK..ttyS0", pid: 42), 75),
  (SerialError.permissionDenied(path: "/dev/ttyS0", errno: Errno(code: EACCES)), 77),
  (
    SerialError.io(
      operation: "switch the modem lines of", path: "/dev/ttyS0", errno: Errno(code: EIO)), 74
  ),
  (SerialError.notRecordable(path: "/etc/passwd", directory: "/dev"), 65),
  (
    OutputFile.Failure.cannotWrite(path: "/x/a.wav", option: "--wav", errno: Errno(code: ENOSPC)),
    74
  ),
  (SoundError.noPlayer(program: "aplay"), 69),
  (SoundError.cannotStart(program: "/usr/bin/aplay", errno: Errno(code: ENOMEM)), 74),
  (
    SoundError.playerRefused(
      device: "hw:9", status: 1,
      said: "aplay: main:850: audio open error: No such file or directory"),
    69
  ),
  (
    SoundError.playerRefused(
      device: "hw:0", status: 1, said: "aplay: main:850: audio open error: Device or resource busy"),
    75
  ),
  (
    SoundError.playerRefused(
      device: "hw:0", status: 1, said: "aplay: main:850: audio open error: Permission denied"),
    77
  ),
  (SoundError.playerRefused(device: "default", status: 1, said: "aplay: something else"), 74),
  (SoundError.playerSilent(device: "default"), 74),
  (SoundError.playerEnded(device: "default", status: 1, said: ""), 69),
  (DetachError.noExecutable, 70),
]

@Suite("failureReport")
struct ExitStatusTests {
  @Test(arguments: errorsAndStatuses.indices)
  func everyErrorFamilyMapsToItsStatusAndMessage(_ index: Int) {
    let (error, status) = errorsAndStatuses[index]
    let report = failureReport(for: error)
    #expect(report.status == status, "\(error)")
    // The report may add the command line's advice, but keeps what the error says; timing
    // errors are said in terms of the options.
    #expect(report.message.contains(error.description) || error is TimingError, "\(report)")
  }

  @Test func theCommandLineAddsItsAdviceToLibraryErrors() {
    let unsendable = MorseError.unsendable(UnsendableCharacter(character: "€", line: 1, column: 2))
    #expect(failureReport(for: unsendable).message.contains("--skip-unknown"))
    #expect(failureReport(for: unsendable).message.contains("morsetorch alphabet"))
    #expect(failureReport(for: TimingError.wordsPerMinuteOutOfRange(0)).message.contains("--wpm 0"))
    #expect(
      failureReport(for: TimingError.wordsPerMinuteOutOfRange(0)).message.contains("1 to 200"))
    #expect(failureReport(for: TimingError.unitOutOfRange(0)).message.contains("--unit 0"))
    #expect(
      failureReport(for: LEDError.ledNotFound("x", available: ["a"])).message.contains(
        "morsetorch list"))
    #expect(failureReport(for: LEDError.invalidName("..")).message.contains("morsetorch list"))
  }

  @Test func aBrokenPipeEndsQuietlyButAClosedOrFullOutputIsAnError() {
    let brokenPipe = failureReport(for: OutputError(errno: .brokenPipe))
    #expect(brokenPipe.status == 0 && brokenPipe.message.isEmpty)
    let closed = failureReport(for: OutputError(errno: Errno(code: EBADF)))
    #expect(closed.status == 74 && closed.message.contains("EBADF"))
    let full = failureReport(for: OutputError(errno: .noSpace))
    #expect(full.status == 74 && full.message.contains("ENOSPC"))
  }

  @Test func aRestoreFailureSaysBothUnlessTheLEDVanished() {
    struct Broken: Error, CustomStringConvertible { var description: String { "broken" } }
    let busyA = RestoreFailure.Device(
      device: .led("a"), error: LEDError.busy(path: "/a/trigger"), recordPath: "/run/a.state")
    let both = failureReport(for: RestoreFailure(error: Broken(), failed: [busyA]))
    #expect(both.message.hasPrefix("unexpected error: broken\nalso, restoring LED a failed: "))
    let vanished = LEDError.vanished(path: "/a/brightness", errno: .noSuchFile)
    let goneA = RestoreFailure.Device(
      device: .led("a"), error: vanished, recordPath: "/run/a.state")
    let gone = failureReport(for: RestoreFailure(error: vanished, failed: [goneA]))
    #expect(gone.message == vanished.description)
    #expect(gone.status == 69)
    let alone = failureReport(for: RestoreFailure(error: nil, failed: [busyA]))
    #expect(alone.status == 75)
    #expect(alone.message.contains("/run/a.state"), "\(alone)")
  }

  @Test func aRestoreFailureOfSeveralLEDsNamesEachOneThatSaysSomethingNew() {
    let vanished = LEDError.vanished(path: "/b/brightness", errno: .noSuchFile)
    let failure = RestoreFailure(
      error: vanished,
      failed: [
        RestoreFailure.Device(
          device: .led("a"), error: LEDError.busy(path: "/a/trigger"), recordPath: "/run/a.state"),
        RestoreFailure.Device(device: .led("b"), error: vanished, recordPath: "/run/b.state"),
      ])
    let report = failureReport(for: failure)
    #expect(report.status == 69)
    #expect(report.message.hasPrefix(vanished.description + "\nalso, restoring LED a failed: "))
    #expect(report.message.contains("/run/a.state"))
    #expect(!report.message.contains("/run/b.state"), "b vanished: nothing new to say")
  }

  @Test(arguments: [EACCES, EROFS, ENOSPC, ELOOP, EISDIR])
  func aRuntimeDirectoryThatCannotHoldTheFilesIsAConfigurationError(code: Int32) {
    let report = failureReport(
      for: ControlError.file(operation: "open", path: "/run/x/a.lock", errno: Errno(code: code)))
    #expect(report.status == 78, "\(report)")
    #expect(report.message.contains("MORSETORCH_RUNTIME_DIR"), "\(report)")
  }

  @Test func aLeftoverThatCannotBeRestoredNamesTheRecordAndTheWayOut() {
    let report = failureReport(
      for: LeftoverRestoreFailure(
        device: .led("a"), pid: 42, recordPath: "/run/morsetorch/a.state",
        error: LEDError.permissionDenied(path: "/a/trigger", errno: .permissionDenied)))
    #expect(report.status == 77)
    #expect(report.message.contains("pid 42"))
    #expect(report.message.contains("/run/morsetorch/a.state"))
    #expect(report.message.contains("morsetorch stop --led a"))
  }

  @Test func statusConstantsAreSysexits() {
    #expect(ExitStatus.success == 0)
    #expect(ExitStatus.notRunning == 3)
    #expect(ExitStatus.cancelledOther == 4)
    #expect(ExitStatus.usage == 64)
    #expect(ExitStatus.dataError == 65)
    #expect(ExitStatus.unavailable == 69)
    #expect(ExitStatus.software == 70)
    #expect(ExitStatus.systemError == 71)
    #expect(ExitStatus.ioError == 74)
    #expect(ExitStatus.temporaryFailure == 75)
    #expect(ExitStatus.permissionDenied == 77)
    #expect(ExitStatus.configuration == 78)
    #expect(ExitStatus.signalled(SIGHUP) == 129)
    #expect(ExitStatus.signalled(SIGINT) == 130)
    #expect(ExitStatus.signalled(SIGTERM) == 143)
  }

  @Test func aThreadOrDescriptorRefusedNamesTheLimitWithItsOwnStatus() {
    // What reaches the top unwrapped: pthread_create's EAGAIN, a pipe's EMFILE.
    let thread = failureReport(for: Errno.wouldBlock)
    #expect(thread.status == 71)
    #expect(thread.message.hasPrefix("cannot start a thread: "), "\(thread)")
    #expect(thread.message.contains("ulimit -u") && thread.message.contains("ulimit -v"))
    let descriptor = failureReport(for: Errno.tooManyOpenFiles)
    #expect(descriptor.status == 71)
    #expect(descriptor.message.contains("(EMFILE)") && descriptor.message.contains("ulimit -n"))
    let arguments = failureReport(for: SystemLimitError.commandLineUnreadable(.tooManyOpenFiles))
    #expect(
      arguments.message == "cannot read the arguments from /proc/self/cmdline: Too many open "
        + "files (EMFILE); the limit on open files (ulimit -n) may be too low")
  }

  @Test func anAreaErrorForWantOfADescriptorIsASystemLimitNotAnIOError() {
    let led = LEDError.io(operation: "read", path: "/leds/a/trigger", errno: .tooManyOpenFiles)
    let lock = ControlError.file(
      operation: "open", path: "/run/morsetorch/a.lock", errno: .tooManyOpenFilesInSystem)
    for error in [led, lock, InputError.cannotOpen(path: "/x", errno: .tooManyOpenFiles)]
      as [any Error & CustomStringConvertible]
    {
      let report = failureReport(for: error)
      #expect(report.status == 71, "\(report)")
      #expect(report.message.hasPrefix(error.description + "\nThe "), "\(report)")
    }
    #expect(failureReport(for: led).message.hasSuffix("(ulimit -n) may be too low."))
  }

  @Test func hintedErrorKeepsTheStatusOfItsErrorAndAddsTheHint() {
    let hinted = HintedError(
      error: LEDError.noLEDs(directory: "/leds"), hint: "name one with --led NAME")
    let report = failureReport(for: hinted)
    #expect(report.status == 69)
    #expect(
      report.message == LEDError.noLEDs(directory: "/leds").description + "\n"
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
    #expect(Signals.name(SIGINT) == "SIGINT")
    #expect(Signals.name(SIGTERM) == "SIGTERM")
    #expect(Signals.name(SIGHUP) == "SIGHUP")
    #expect(Signals.name(SIGUSR1) == "SIGUSR1")
    #expect(Signals.name(SIGQUIT) == "SIGQUIT")
    #expect(Signals.name(__libc_current_sigrtmin()) == "SIGRTMIN")
    #expect(Signals.name(__libc_current_sigrtmin() + 3) == "SIGRTMIN+3")
    #expect(Signals.name(__libc_current_sigrtmax()) == "SIGRTMAX")
  }

  @Test func everyStoppingSignalHasAName() {
    for signal in Signals.terminating {
      #expect(Signals.name(signal).hasPrefix("SIG"), "\(signal)")
    }
    for crash in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS, SIGKILL, SIGPIPE] {
      #expect(!Signals.terminating.contains(crash), "\(crash)")
    }
    #expect(Signals.terminating.contains(__libc_current_sigrtmax()))
  }

  @Test func onlyAMissingOrEmptyClassDirectoryMeansNoLED() {
    #expect(LEDError.classDirectoryMissing(path: "/x").isNoLED)
    #expect(LEDError.noLEDs(directory: "/x").isNoLED)
    #expect(!LEDError.ledNotFound("a", available: []).isNoLED)
    #expect(!LEDError.busy(path: "/x").isNoLED)
  }
}
