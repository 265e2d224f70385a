import Glibc
import MorseTestSupport
import Testing

extension CommandProcessTests {
  @Test func aHugeMaxBrightnessIsNoCrash() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(flash, maxBrightness: Int.max, brightness: 0, trigger: "[none]")
    let outcome = try runMorsetorch(
      "send", "--led", flash, "--unit", "1", "--brightness", "50%", "E", in: fixture)
    // Before: an arithmetic overflow trapped (SIGILL) with the LED claimed and a record left.
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(try fixture.read("brightness", of: flash) == "0\n")
  }

  @Test func aBrightnessOverTheMaximumIsTheMaximumAndSaidSo() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(flash, maxBrightness: 255, brightness: 0, trigger: "[none]")
    let recorder = AttributeRecorder("brightness", of: flash, in: fixture)
    let outcome = try runMorsetorch(
      "send", "--led", flash, "--unit", "30", "--brightness", "300", "E", in: fixture)
    let values = recorder.stop()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(values.contains("255\n"), "\(values)")
    // Before: clamped without a word.
    #expect(
      outcome.standardError.contains("--brightness 300 is over the max_brightness of LED "
        + "\(flash), 255: 255 used"), "\(outcome)")
  }

  @Test func repeatSendsTheMessageAgainAfterThePause() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch(
      "send", "--dry-run", "--unit", "10", "--repeat", "3", "--pause", "1s", "E", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let lines = outcome.standardOutput.split(separator: "\n").map {
      $0.split(separator: " ").joined(separator: " ")
    }
    #expect(
      Array(lines.dropFirst()) == [
        "0 on 10 E .", "10 off 1000 (pause, round 2)", "1010 on 10 E .",
        "1020 off 1000 (pause, round 3)", "2020 on 10 E .", "total 2030 ms (2 s) in 5 steps",
      ], "\(outcome)")
    let byDefault = try runMorsetorch(
      "send", "--dry-run", "--unit", "10", "--repeat", "2", "E", in: fixture)
    #expect(byDefault.standardOutput.contains("70  (pause, round 2)"), "a word gap: \(byDefault)")
  }

  @Test(arguments: [
    ["send", "--repeat", "2", "--loop", "E"], ["send", "--repeat", "0", "E"],
    ["send", "--pause", "2s", "E"], ["send", "--repeat", "2", "--pause", "soon", "E"],
    ["send", "--loop", "--dry-run", "E"], ["send", "--loop"], ["send", "--repeat", "2", "-"],
  ])
  func repeatAndLoopRefuseWhatMakesNoSense(arguments: [String]) throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      arguments, ledsDirectory: fixture.ledsPath, input: "E\n")
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(outcome.standardError.contains("--"), "\(outcome)")
  }

  @Test func aLoopRunsUntilStoppedAndStatusCountsItsRounds() throws {
    let fixture = try timerFixture()
    let child = try start(
      "send", "--led", flash, "--loop", "--pause", "35ms", "--unit", "5", "E", in: fixture)
    var status = try runMorsetorch("status", in: fixture)
    for _ in 0..<100 where !status.standardOutput.contains("looping") {
      usleep(50_000)
      status = try runMorsetorch("status", in: fixture)
    }
    #expect(status.standardOutput.contains(", looping)"), "\(status)")
    let stop = try runMorsetorch("stop", in: fixture)
    #expect(stop.exitStatus == 0, "\(stop)")
    #expect(try child.wait().exitStatus == 143)
    #expect(try fixture.read("trigger", of: flash) == "timer\n")
  }
}
