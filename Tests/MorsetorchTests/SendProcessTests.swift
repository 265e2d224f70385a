import Foundation
import MorseTestSupport
import Testing

@Suite("send, as a process")
struct SendProcessTests {
  @Test func sendRestoresTheBrightnessWhenNoTriggerWasActive() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(flash, brightness: 7, trigger: "[none] timer heartbeat")
    let outcome = try runMorsetorch("send", "--led", flash, "--unit", "1", "SOS", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput.isEmpty)
    #expect(try fixture.read("brightness", of: flash) == "7\n")
    #expect(try fixture.read("trigger", of: flash) == "[none] timer heartbeat\n")
  }

  @Test(arguments: ["none [timer] heartbeat", "[timer]"])
  func sendPutsTheTimerTriggerAndItsDelaysBack(_ trigger: String) throws {
    let fixture = try timerFixture(trigger: trigger)
    let outcome = try runMorsetorch("send", "--led", flash, "--unit", "1", "SOS", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    // The trigger owns brightness again: the LED is left off for it, not at the old 7.
    try expectTimerRestored(fixture)
  }

  @Test func delaysResetWhileSendingAreWrittenBack() throws {
    // The kernel resets delay_on/delay_off when the timer trigger goes and comes back; the
    // values tuned before must be the ones left afterwards.
    let fixture = try timerFixture()
    let child = try start("send", "--led", flash, "--unit", "200", "T", in: fixture)
    child.closeInput()
    #expect(try eventually { try fixture.read("trigger", of: flash) == "none\n" })
    try fixture.write("500\n", to: "delay_on", of: flash)
    try fixture.write("500\n", to: "delay_off", of: flash)
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test(arguments: [(nil as String?, "255\n"), ("50%", "128\n"), ("3", "3\n"), ("1000", "255\n")])
  func whileSendingTheLEDIsOnAtTheChosenBrightnessWithNoTrigger(
    _ brightness: String?, _ expected: String
  ) throws {
    let fixture = try timerFixture()
    var arguments = ["send", "--led", flash, "--unit", "400"]
    if let brightness { arguments += ["--brightness", brightness] }
    let child = try MorsetorchProcess(arguments + ["T"], ledsDirectory: fixture.ledsPath)
    child.closeInput()
    let isOn = try eventually { try fixture.read("brightness", of: flash) == expected }
    #expect(isOn, "brightness never read \(expected.debugDescription)")
    if isOn {
      #expect(try fixture.read("trigger", of: flash) == "none\n")
    }
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test func standardInputIsSentAsEachLineArrives() throws {
    let fixture = try timerFixture()
    let child = try start("send", "--led", flash, "--unit", "300", in: fixture)
    try child.write("E\n")
    // Standard input is still open: the line must be on its way before the end of input.
    let isOn = try eventually { try fixture.read("brightness", of: flash) == "255\n" }
    #expect(isOn, "the first line was not sent before standard input was closed")
    #expect(child.isRunning)
    child.closeInput()
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test(arguments: [[], ["-"]])
  func everyLineOfStandardInputIsSent(_ operands: [String]) throws {
    let fixture = try timerFixture()
    let recorder = AttributeRecorder("brightness", of: flash, in: fixture)
    let outcome = try MorsetorchProcess.run(
      ["send", "--led", flash, "--unit", "50"] + operands, ledsDirectory: fixture.ledsPath,
      input: "E\nT\n")
    let values = recorder.stop()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    // E, a word gap, T: 1 + 7 + 3 units.
    #expect(outcome.elapsed >= .milliseconds(550))
    #expect(values.filter { $0 == "255\n" }.count == 2, "brightness went \(values)")
    try expectTimerRestored(fixture)
  }

  @Test func lastLineWithoutNewlineIsSent() throws {
    let fixture = try timerFixture()
    let recorder = AttributeRecorder("brightness", of: flash, in: fixture)
    let outcome = try runMorsetorch("send", "--led", flash, "--unit", "50", in: fixture, input: "T")
    let values = recorder.stop()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(values.contains("255\n"), "brightness went \(values)")
    try expectTimerRestored(fixture)
  }

  @Test func windowsLineEndingsAreNotCharacters() throws {
    let fixture = try timerFixture()
    let outcome = try runMorsetorch(
      "send", "--led", flash, "--unit", "1", in: fixture, input: "E\r\nT\r\n")
    #expect(outcome.exitStatus == 0, "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test func ledWithoutTriggerSupportGetsItsBrightnessBack() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(flash, brightness: 3, trigger: nil)
    let outcome = try runMorsetorch("send", "--led", flash, "--unit", "1", "E", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(try fixture.read("brightness", of: flash) == "3\n")
    #expect(!FileManager.default.fileExists(atPath: fixture.devicePath(of: flash) + "/trigger"))
  }
}
