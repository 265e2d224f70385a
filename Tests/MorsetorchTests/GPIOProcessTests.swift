import Foundation
import Glibc
import MorseTestSupport
import Testing

// `send --gpio`, `list --gpio`, `status`/`stop --gpio` on simulated chips (MORSETORCH_GPIO_DIR):
// the test build of the tool that takes them (morsetorch-simulated-gpio), never /dev.

/// A simulated chip like a Raspberry Pi's: 28 lines, GPIO4 held by the 1-wire driver.
private func chips() throws -> (TemporaryGPIODirectory, TemporaryLEDDirectory) {
  let gpio = try TemporaryGPIODirectory()
  try gpio.addChip(
    0, label: "pinctrl-bcm2711", lines: 28, names: [4: "GPIO4", 17: "GPIO17"],
    consumers: [4: "w1-gpio"])
  return (gpio, try TemporaryLEDDirectory())
}

private func run(
  _ arguments: [String], _ fixture: (TemporaryGPIODirectory, TemporaryLEDDirectory)
) throws -> MorsetorchProcess.Outcome {
  try MorsetorchProcess.run(
    arguments, ledsDirectory: fixture.1.ledsPath,
    environment: fixture.0.environment, tool: .simulatedGPIO)
}

private func start(
  _ arguments: [String], _ fixture: (TemporaryGPIODirectory, TemporaryLEDDirectory)
) throws -> MorsetorchProcess {
  let child = try MorsetorchProcess(
    arguments, ledsDirectory: fixture.1.ledsPath,
    environment: fixture.0.environment, tool: .simulatedGPIO)
  child.closeInput()
  return child
}

@Suite("GPIO lines, as a process")
struct GPIOProcessTests {
  @Test func aLineByLabelAndNameKeysTheMessageAndIsLeftInactive() throws {
    let fixture = try chips()
    let levels = AttributeRecorder(path: fixture.0.valuePath(chip: 0, line: 17))
    let outcome = try run(
      ["send", "--gpio", "pinctrl-bcm2711:GPIO17", "--unit", "20", "EE"], fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    // Inactive at the request (too short before the first flash to be seen for sure), then
    // two flashes, then inactive.
    #expect(levels.stop().drop { $0 == "0\n" } == ["1\n", "0\n", "1\n", "0\n"])
  }

  @Test func theShippedToolTakesNoDirectoryForAChip() throws {
    let fixture = try chips()
    let outcome = try MorsetorchProcess.run(
      ["send", "--gpio", "gpiochip0:17", "E"], ledsDirectory: fixture.1.ledsPath,
      environment: fixture.0.environment)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardError.contains("gpiochip0 is not a GPIO chip"), "\(outcome)")
    #expect(fixture.0.value(chip: 0, line: 17) == nil)
  }

  @Test func anLEDAndALineInOneSendSwitchInLockstepAndAreBothPutBack() throws {
    let fixture = try chips()
    try fixture.1.addLED(flash, maxBrightness: 255, brightness: 7, trigger: "[none]")
    let levels = AttributeRecorder(path: fixture.0.valuePath(chip: 0, line: 17))
    let brightness = AttributeRecorder("brightness", of: flash, in: fixture.1)
    let outcome = try run(
      ["send", "--led", flash, "--gpio", "gpiochip0:17", "--unit", "20", "EE"], fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(levels.stop().drop { $0 == "0\n" } == ["1\n", "0\n", "1\n", "0\n"])
    #expect(brightness.stop().drop { $0 == "7\n" || $0 == "0\n" }.first == "255\n")
    #expect(try fixture.1.read("brightness", of: flash) == "7\n")
    // A busy line refuses the whole send: the LED is not touched.
    let busy = try run(["send", "--led", flash, "--gpio", "gpiochip0:GPIO4", "E"], fixture)
    #expect(busy.exitStatus == 75, "\(busy)")
    #expect(try fixture.1.read("brightness", of: flash) == "7\n")
  }

  @Test func activeLowInvertsTheLevelsAndLeavesTheLineHigh() throws {
    let fixture = try chips()
    let levels = AttributeRecorder(path: fixture.0.valuePath(chip: 0, line: 17))
    let outcome = try run(
      ["send", "--gpio", "gpiochip0:17", "--active-low", "--unit", "20", "E"], fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(levels.stop().drop { $0 == "1\n" } == ["0\n", "1\n"])
  }

  @Test func aLineInUseIs75WithItsConsumerAndAMissingOneIs69WithWhatExists() throws {
    let fixture = try chips()
    let busy = try run(["send", "--gpio", "gpiochip0:GPIO4", "E"], fixture)
    #expect(busy.exitStatus == 75, "\(busy)")
    #expect(busy.standardError.contains("in use by \"w1-gpio\""), "\(busy)")
    #expect(fixture.0.value(chip: 0, line: 4) == nil, "the busy line was driven")
    let noLine = try run(["send", "--gpio", "gpiochip0:40", "E"], fixture)
    #expect(noLine.exitStatus == 69, "\(noLine)")
    #expect(noLine.standardError.contains("its lines are 0 to 27. Named lines: GPIO4, GPIO17"))
    let noChip = try run(["send", "--gpio", "pinctrl-bcm2835:17", "E"], fixture)
    #expect(noChip.exitStatus == 69, "\(noChip)")
    #expect(noChip.standardError.contains("Chips: gpiochip0 (pinctrl-bcm2711)."), "\(noChip)")
    let noPath = try run(["send", "--gpio", fixture.0.path + "/gpiochip9:5", "E"], fixture)
    #expect(noPath.exitStatus == 69, "\(noPath)")
    let named = "there is no GPIO chip \"\(fixture.0.path)/gpiochip9\"."
    #expect(
      noPath.standardError.contains(named + " Chips: gpiochip0 (pinctrl-bcm2711)."), "\(noPath)")
    #expect(!noPath.standardError.contains("disappeared"), "\(noPath)")
  }

  @Test(arguments: [
    ["--gpio", "17"], ["--led", "x", "--bias", "pull-up"],
    ["--gpio", "gpiochip0:17", "--brightness", "5"], ["--active-low"], ["--bias", "pull-up"],
    ["--gpio", "gpiochip0:17", "--bias", "sideways"],
  ])
  func optionsThatDoNotFitAreUsageErrors(options: [String]) throws {
    let fixture = try chips()
    let outcome = try run(["send"] + options + ["E"], fixture)
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(fixture.0.value(chip: 0, line: 17) == nil)
  }

  @Test(arguments: [MorsetorchProcess.Tool.shipped, .simulatedGPIO])
  func listWithNoChipAtAllIs69LikeListWithNoLED(_ tool: MorsetorchProcess.Tool) throws {
    let empty = try TemporaryGPIODirectory()
    let leds = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      ["list", "--gpio"], ledsDirectory: leds.ledsPath, environment: empty.environment,
      tool: tool)
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardOutput.isEmpty, "\(outcome)")
    #expect(outcome.standardError.hasPrefix("morsetorch: no GPIO chips under "), "\(outcome)")
    let noLED = try MorsetorchProcess.run(["list"], ledsDirectory: leds.ledsPath, tool: tool)
    #expect(noLED.exitStatus == outcome.exitStatus, "\(noLED)")
  }

  @Test func listShowsTheChipsLinesAndWhoUsesThem() throws {
    let fixture = try chips()
    let outcome = try run(["list", "--gpio"], fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first == "gpiochip0  pinctrl-bcm2711  28 lines")
    #expect(
      lines.contains { $0.hasPrefix("  4 ") && $0.hasSuffix("w1-gpio") && $0.contains("GPIO4") })
    #expect(lines.count == 2 + 28)
  }

  @Test func statusAndStopFindATransmissionOnALineAndARerunCancelsIt() throws {
    let fixture = try chips()
    let sender = try start(["send", "--gpio", "gpiochip0:17", "--unit", "300", "TTTTT"], fixture)
    let isOn = eventually { fixture.0.value(chip: 0, line: 17) == "1\n" }
    try #require(isOn, "the line never went active")
    let status = try run(["status", "--gpio", "pinctrl-bcm2711:GPIO17"], fixture)
    #expect(status.standardOutput.hasPrefix("gpiochip0:17: sending \"TTTTT\""), "\(status)")
    let rerun = try run(["send", "--gpio", "gpiochip0:17", "E"], fixture)
    #expect(rerun.exitStatus == 4, "\(rerun)")
    #expect(
      rerun.standardOutput.contains("cancelled the transmission on GPIO line gpiochip0:17"),
      "\(rerun)")
    let outcome = try sender.wait()
    #expect(outcome.exitStatus == 143, "\(outcome)")
    #expect(outcome.standardError.contains("GPIO line left inactive"), "\(outcome)")
    #expect(fixture.0.value(chip: 0, line: 17) == "0\n")
    let after = try run(["stop", "--gpio", "gpiochip0:17"], fixture)
    #expect(after.exitStatus == 3, "\(after)")
    #expect(after.standardError.contains("nothing is being sent on GPIO gpiochip0:17"), "\(after)")
  }

  @Test func aKilledSenderLeavesTheLineActiveAndStopDrivesItInactive() throws {
    let fixture = try chips()
    let sender = try start(["send", "--gpio", "gpiochip0:17", "--unit", "300", "TTTTT"], fixture)
    let isOn = eventually { fixture.0.value(chip: 0, line: 17) == "1\n" }
    try #require(isOn)
    sender.send(signal: SIGKILL)
    _ = try sender.wait()
    #expect(fixture.0.value(chip: 0, line: 17) == "1\n")
    let stop = try run(["stop"], fixture)
    #expect(stop.exitStatus == 0, "\(stop)")
    #expect(stop.standardError.contains("restored GPIO line gpiochip0:17, left claimed"), "\(stop)")
    #expect(fixture.0.value(chip: 0, line: 17) == "0\n")
  }
}
