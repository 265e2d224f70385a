import MorseCore
import MorseReceiving
import Testing

@testable import MorsetorchTool

/// The plan of `receive` with these words.
private func receive(_ words: String...) throws -> ReceivePlan {
  try ReceivePlan(ParsedArguments(words, command: "receive"))
}

@Suite("receive options")
struct ReceivePlanTests {
  @Test func everyValueIsCheckedBeforeAnyChipIsLookedFor() {
    // No chip "nochip" exists anywhere: the plan never looks.
    #expect(
      throws: UsageError.invalidValue(
        option: "--bias", value: "sideways", expected: "pull-up, pull-down or disabled")
    ) {
      try receive("--gpio", "nochip:1", "--bias", "sideways")
    }
  }

  @Test func aLineTakesItsWiringAndAFileTakesNone() throws {
    let source = try receive("--gpio", "gpiochip0:4", "--active-low", "--bias", "pull-up").source
    guard case .gpio(let line, let isActiveLow, let bias) = source else {
      Issue.record("not a GPIO line")
      return
    }
    #expect(line.description == "gpiochip0:4" && isActiveLow && bias == .pullUp)
    #expect(
      throws: UsageError.requiresOption(
        "--active-low",
        requirement: "--gpio CHIP:LINE, --serial PORT:LINE, --video FILE or --camera")
    ) {
      try receive("--edges", "-", "--active-low")
    }
  }

  @Test func aSerialPortIsReadOnAStatusLineOnly() throws {
    guard
      case .serial(let address, let isActiveLow) = try receive(
        "--serial", "/dev/serial/by-id/usb-FTDI_A1:dcd", "--active-low"
      ).source
    else {
      Issue.record("not a serial port")
      return
    }
    #expect(address.path == "/dev/serial/by-id/usb-FTDI_A1" && address.line == .dcd && isActiveLow)
    for given in ["ttyUSB0", "ttyUSB0:rts", "ttyUSB0:dtr"] {
      #expect(throws: UsageError.self) { try receive("--serial", given) }
    }
    #expect(throws: UsageError.requiresOption("--bias", requirement: "--gpio CHIP:LINE")) {
      try receive("--serial", "ttyS0:cts", "--bias", "pull-up")
    }
  }

  @Test func activeLowMakesALightsMarksTheDarkOnesForAVideoAndACamera() throws {
    #expect(try receive("--video", "-", "--active-low").source.light.marksAreDark)
    #expect(try !receive("--video", "-").source.light.marksAreDark)
    let camera = try receive("--camera", "--active-low", "--region", "1,2,3,4").source.light
    #expect(camera.marksAreDark && camera.region?.description == "1,2 (3x4)")
  }

  /// The speeds the receiver follows (1 to 60 WPM), for either hint: a signal lamp's speed
  /// is a hint as a key's is. Taken from the receiver's settings, as help and errors say them.
  @Test(arguments: ["--wpm", "--farnsworth"])
  func aSpeedHintIsWithinTheSpeedsTheReceiverFollows(option: String) throws {
    let followed = MorseReceiver.Settings().minimumWPM...MorseReceiver.Settings().maximumWPM
    #expect(Double(ReceiverSpeeds.range.lowerBound) == followed.lowerBound)
    #expect(Double(ReceiverSpeeds.range.upperBound) == followed.upperBound)
    for wpm in [ReceiverSpeeds.range.lowerBound, ReceiverSpeeds.range.upperBound] {
      #expect(throws: Never.self) { try receive("--edges", "-", option, String(wpm)) }
    }
    for wpm in [ReceiverSpeeds.range.lowerBound - 1, ReceiverSpeeds.range.upperBound + 1] {
      #expect(
        throws: UsageError.invalidValue(
          option: option, value: String(wpm), expected: "a whole number from 1 to 60")
      ) { try receive("--edges", "-", option, String(wpm)) }
    }
    #expect(ManPage.text.contains("within 1 to 60 WPM"))
    #expect(HelpText.receive.text.contains("the speed to expect, 1-60"))
  }

  @Test func theSpeedAndTheScriptAreTheReceiversSettings() throws {
    let plan = try receive("--edges", "-", "--wpm", "20", "--farnsworth", "10", "--alphabet=greek")
    #expect(plan.settings.wordsPerMinute == 20)
    #expect(plan.settings.farnsworthWPM == 10)
    #expect(plan.settings.alphabet == .greek)
    #expect(plan.timeout == nil)
    #expect(try receive("--edges", "-", "--timeout", "30s").timeout == .seconds(30))
  }

  @Test func theTraceIsAFileOrStandardOutputWithAnySource() throws {
    #expect(try receive("--edges", "-").trace == nil)
    #expect(try receive("--edges", "-", "--trace", "read.svg").trace == "read.svg")
    #expect(try receive("--video", "clip.y4m", "--trace=-").trace == "-")
    #expect(try receive("--gpio", "gpiochip0:4", "--trace", "key.svg").trace == "key.svg")
    #expect(throws: UsageError.self) { try receive("--edges", "-", "--trace") }
  }

  @Test func showIsRefusedWithoutATerminalOnStandardErrorAndWantsFrames() throws {
    let plan = try receive("--video", "-", "--show")
    #expect(plan.show)
    #expect(
      throws: UsageError.requiresOption("--show", requirement: "standard error on a terminal")
    ) { try plan.checkShow(isErrorTerminal: false, term: "xterm") }
    #expect(
      throws: UsageError.requiresOption(
        "--show", requirement: "a terminal that can move its cursor (TERM=dumb)")
    ) { try plan.checkShow(isErrorTerminal: true, term: "dumb") }
    try plan.checkShow(isErrorTerminal: true, term: "xterm")
    // Without --show, no terminal is needed.
    try receive("--video", "-").checkShow(isErrorTerminal: false, term: nil)
    #expect(throws: UsageError.requiresOption("--show", requirement: "--video FILE or --camera")) {
      try receive("--edges", "-", "--show")
    }
  }
}
