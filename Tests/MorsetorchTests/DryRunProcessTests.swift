import MorseTestSupport
import Testing

@testable import MorsetorchTool

@Suite("send --dry-run, as a process")
struct DryRunProcessTests {
  @Test func dryRunPrintsTheTimelineAtOnceAndNeedsNoLED() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      ["send", "--dry-run", "--unit", "10", "SOS"], ledsDirectory: fixture.root + "/none")
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    try #require(lines.count == 20, "\(outcome)")  // header, 17 steps, total, final newline
    #expect(lines[0] == TimelineFormatter.header)
    let steps = lines[1...17].map { $0.split(separator: " ").map(String.init) }
    #expect(steps.map { $0[1] } == (0..<17).map { $0.isMultiple(of: 2) ? "on" : "off" })
    #expect(steps.first.map { Array($0.prefix(4)) } == ["0", "on", "10", "S"])
    #expect(steps.last.map { Array($0.prefix(4)) } == ["260", "on", "10", "S"])
    #expect(lines[18] == "total 270 ms in 17 steps")
    #expect(lines[19].isEmpty)
  }

  @Test func dryRunDoesNotWaitForTheVirtualTime() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      ["send", "--dry-run", "--unit", "10000", "SOS"], ledsDirectory: fixture.root + "/none",
      timeout: .seconds(10))
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput.hasSuffix("total 270000 ms (4 min 30 s) in 17 steps\n"), "\(outcome)")
    #expect(outcome.elapsed < .seconds(5))
  }

  @Test func dryRunLeavesAnExistingLEDAlone() throws {
    let fixture = try timerFixture()
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch("send", "--dry-run", "--led", flash, "E", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput.hasSuffix("total 100 ms in 1 step\n"), "\(outcome)")
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func dryRunReadsStandardInput() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch(
      "send", "--dry-run", "--unit", "10", in: fixture, input: "E\nT\n")
    #expect(outcome.exitStatus == 0, "\(outcome)")
    // E (10), a word gap between the lines (70), T (30).
    let lines = outcome.standardOutput.split(separator: "\n").map {
      $0.split(separator: " ").map(String.init)
    }
    #expect(
      lines.dropFirst() == [
        ["0", "on", "10", "E", "."], ["10", "off", "70", "(word", "gap,", "next", "line)"],
        ["80", "on", "30", "T", "-"], ["total", "110", "ms", "in", "3", "steps"],
      ], "\(outcome)")
  }
}
