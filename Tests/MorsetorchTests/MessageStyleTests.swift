import GPIODriver
import LEDDriver
import LinuxSystem
import MorseCore
import MorsePlayer
import ReceiveSources
import Testing
import TransmitterControl

@testable import MorsetorchTool

/// One error of each kind the tool reports, as its first line on standard error.
private let representativeErrors: [any Error] = [
  GPIOError.chipNotFound("gpiochip9", available: ["gpiochip0"]),
  GPIOError.io(operation: "read", path: "/dev/gpiochip0", errno: .ioError),
  GPIOError.vanished(path: "/dev/gpiochip0", errno: .noSuchDevice),
  LEDError.ledNotFound("white:flash", available: ["input3::capslock"]),
  LEDError.noMatch(pattern: "*:green:*", available: []),
  LEDError.classDirectoryMissing(path: "/sys/class/leds"),
  LEDError.io(operation: "write", path: "/sys/class/leds/a/brightness", errno: .ioError),
  LEDError.malformed(path: "/sys/class/leds/a/trigger", content: "?"),
  LEDVariableError(error: .ledNotFound("nope", available: [])),
  ControlError.directory(path: "/run/morsetorch", errno: .noSuchFile),
  ControlError.file(operation: "open", path: "/run/morsetorch/x.lock", errno: .ioError),
  MorseError.unknownCode("......", line: 1, column: 1),
  UsageError.unknownOption("--wmp", command: "send"),
  UsageError.missingCommand,
]

/// What comes from outside (a path, a name, a value) made to act on a terminal and to forge a
/// line of its own.
private let hostile = "x\u{1B}]0;pwned\u{7}\u{1B}[2J\r\nmorsetorch: fake"

/// One error of each family that quotes something from outside, quoting `hostile`.
private let errorsQuotingOutsideText: [any Error] = [
  GPIOError.chipNotFound(hostile, available: [hostile]),
  GPIOError.io(operation: "read", path: hostile, errno: .ioError),
  GPIOError.vanished(path: hostile, errno: .noSuchDevice),
  LEDError.ledNotFound("white:flash", available: [hostile]),
  LEDError.classDirectoryMissing(path: hostile),
  LEDError.io(operation: "write", path: hostile, errno: .ioError),
  LEDError.malformed(path: hostile, content: hostile),
  ControlError.directory(path: hostile, errno: .noSuchFile),
  ControlError.file(operation: "open", path: hostile, errno: .ioError),
  ControlError.unsafeFile(path: hostile, reason: "it is a FIFO"),
  ControlError.holderDidNotStop(pid: 7, device: hostile, reason: "timed out"),
  ControlError.lockNotHeldByProcess(path: hostile, pid: -1),
  CameraError.notAVideoDevice(path: hostile),
  CameraError.failed(operation: "open", path: hostile, errno: .ioError),
  InputError.cannotOpen(path: hostile, errno: .noSuchFile),
  UsageError.unknownCommand(hostile),
  UsageError.invalidValue(option: "--wpm", value: hostile, expected: "a number"),
  UsageError.detachUnderService(hostile),
]

@Suite("Message style")
struct MessageStyleTests {
  @Test(arguments: representativeErrors.indices)
  func everyErrorLineHasThePrefixOnceThenLowerCase(_ index: Int) throws {
    let message = failureReport(for: representativeErrors[index]).message
    let line = try #require(Console.errorLine(message).split(separator: "\n").first)
    #expect(line.hasPrefix("morsetorch: "), "\(line)")
    #expect(!line.hasPrefix("morsetorch: morsetorch:"), "\(line)")
    let rest = line.dropFirst("morsetorch: ".count)
    // A name (LED, GPIO, MORSETORCH_LED, a path) stays as it is; a word is never capitalised.
    let first = try #require(rest.first)
    let capitalisedWord = first.isUppercase && rest.dropFirst().first?.isLowercase == true
    #expect(!capitalisedWord, "\(line)")
    #expect(first.isLowercase || first == "\"" || first.isUppercase || first == "$", "\(line)")
  }

  @Test func theLibrariesSentencesStartInLowerCase() {
    #expect(
      Console.errorLine("There is no GPIO chip \"x\".")
        == "morsetorch: there is no GPIO chip \"x\".\n")
    #expect(
      Console.errorLine("Could not open /dev/x: EIO.")
        == "morsetorch: could not open /dev/x: EIO.\n")
    #expect(
      Console.errorLine("warning: The LED was left on")
        == "morsetorch: warning: the LED was left on\n")
  }

  @Test func aNarrowTerminalBreaksAnErrorBetweenWordsNeverInsideAName() {
    let name = "platform-thinkpad_acpi::kbd_backlight_very_long_name"
    let message = failureReport(for: LEDError.ledNotFound(name, available: ["input3::capslock"]))
      .message
    let lines = Console.errorLine(message, columns: 30).split(separator: "\n")
    #expect(lines.count > 2, "\(lines)")
    #expect(lines.first == "morsetorch: there is no LED")
    // The name whole on a line of its own (the terminal wraps it, no break of ours inside).
    #expect(lines.contains { $0 == "\"\(name)\"." }, "\(lines)")
    for line in lines where line.contains(" ") {
      #expect(line.count <= 29, "\(line)")
    }
    #expect(lines.joined(separator: " ") == Console.errorLine(message).dropLast())
  }

  @Test(arguments: [1, 2, 3, 19])
  func tooNarrowATerminalIsLeftToWrapTheLineItself(columns: Int) {
    let message = "there is no LED named \"white:flash\"."
    #expect(Console.errorLine(message, columns: columns) == Console.errorLine(message))
  }

  @Test func aLineThatFitsIsKeptAsItIs() {
    let message = "cannot read  standard input\nRun it again."
    #expect(Console.errorLine(message, columns: 60) == Console.errorLine(message))
  }

  @Test func namesAreNotLowered() {
    #expect(Console.errorLine("LED busy") == "morsetorch: LED busy\n")
    #expect(
      Console.errorLine("GPIO chip gpiochip0 has no line 99")
        == "morsetorch: GPIO chip gpiochip0 has no line 99\n")
    #expect(Console.styled("MORSETORCH_LED names no LED") == "MORSETORCH_LED names no LED")
  }

  @Test func thePrefixIsNeverDoubled() {
    #expect(Console.errorLine("morsetorch: no LEDs") == "morsetorch: no LEDs\n")
  }

  @Test func theSystemLogGetsNoPrefixOfItsOwn() {
    // The journal shows `morsetorch[PID]: ` itself.
    #expect(Console.styled("morsetorch: The LED disappeared") == "the LED disappeared")
  }

  @Test func aProcessErrorLineFollowsTheStyle() throws {
    let outcome = try MorsetorchProcess.run(
      ["send", "--led", "nope", "x"], ledsDirectory: "/nonexistent")
    let line = outcome.standardError.split(separator: "\n").first ?? ""
    #expect(line.hasPrefix("morsetorch: there is no LED class directory"), "\(outcome)")
  }

  @Test(arguments: errorsQuotingOutsideText.indices)
  func whatAnErrorQuotesFromOutsideNeitherActsOnTheTerminalNorMakesALine(_ index: Int) {
    let line = Console.errorLine(failureReport(for: errorsQuotingOutsideText[index]).message)
    #expect(!line.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(line)")
    #expect(!line.split(separator: "\n").contains { $0.hasPrefix("morsetorch: fake") }, "\(line)")
    #expect(line.contains("\\u{1B}]0;pwned"), "\(line)")
  }

  @Test func aMessageBuiltElsewhereHasNoControlLeftButItsLineBreaks() {
    #expect(
      Console.errorLine("cannot open a\u{1B}[2Jb\u{7}\nTry again.")
        == "morsetorch: cannot open a\\u{1B}[2Jb\\u{7}\nTry again.\n")
  }

  @Test func aProcessQuotesOutsideTextShownInEveryMessage() throws {
    for (arguments, environment) in [
      (["send", "E"], ["MORSETORCH_LEDS_DIR": "/nonexistent/" + hostile]),
      (["send", "--detach", "E"], ["MORSETORCH_SERVICE": hostile]),
      (["receive", "--edges", "/nonexistent/" + hostile], [:]),
      (["send", "--wpm", hostile, "E"], [:]),
    ] {
      let outcome = try MorsetorchProcess.run(
        arguments, ledsDirectory: "/nonexistent", environment: environment)
      let error = outcome.standardError
      #expect(!error.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(outcome)")
      #expect(!error.contains("\nmorsetorch: fake"), "\(outcome)")
      #expect(outcome.exitStatus != 0, "\(outcome)")
    }
  }
}
