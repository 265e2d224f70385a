import MorseTestSupport
import Testing

extension SendProcessTests {
  @Test func unknownCharacterIsRejectedBeforeTheLEDIsTouched() throws {
    let fixture = try timerFixture()
    let before = try LEDSnapshot(of: flash, in: fixture)
    let outcome = try runMorsetorch("send", "--led", flash, "--unit", "1", "a€", in: fixture)
    #expect(outcome.exitStatus == 65, "\(outcome)")
    for part in ["'€'", "U+20AC", "line 1, column 2"] {
      #expect(outcome.standardError.contains(part), "\(outcome)")
    }
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func anUnknownCharacterInAStreamIsSkippedWithAWarningAndTheStreamGoesOn() throws {
    let fixture = try timerFixture()
    let recorder = AttributeRecorder("brightness", of: flash, in: fixture)
    let outcome = try runMorsetorch(
      "send", "--led", flash, "--unit", "50", in: fixture, input: "E\nE€\nE\n")
    let values = recorder.stop()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.contains("line 2, column 2"), "\(outcome)")
    #expect(outcome.standardError.contains("U+20AC"), "\(outcome)")
    #expect(values.filter { $0 == "255\n" }.count == 3, "brightness went \(values)")
    try expectTimerRestored(fixture)
  }

  @Test func bytesThatAreNotUTF8InAStreamAreSkippedWithAWarning() throws {
    let fixture = try timerFixture()
    let child = try start("send", "--led", flash, "--unit", "5", in: fixture)
    try child.write(bytes: Array("E\n".utf8) + [0x41, 0xFF, 0x0A])
    child.closeInput()
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(
      outcome.standardError.contains("bytes that are not UTF-8 (U+FFFD) at line 2, column 2"),
      "\(outcome)")
    try expectTimerRestored(fixture)
  }

  @Test func invalidUTF8ArgumentIsRejectedBeforeTheLEDIsTouched() throws {
    let fixture = try timerFixture()
    let before = try LEDSnapshot(of: flash, in: fixture)
    let child = try MorsetorchProcess(
      ["send", "--led", flash, "--unit", "1"], ledsDirectory: fixture.ledsPath,
      launch: .rawLastArgument([0x41, 0xFF]))
    child.closeInput()
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 65, "\(outcome)")
    #expect(outcome.standardError.contains("0xFF"), "\(outcome)")
    #expect(outcome.standardError.contains("not valid UTF-8"), "\(outcome)")
    #expect(try LEDSnapshot(of: flash, in: fixture) == before)
  }

  @Test func aByteOrderMarkAtTheStartOfAnArgumentIsIgnored() throws {
    let fixture = try timerFixture()
    let child = try MorsetorchProcess(
      ["encode"], ledsDirectory: fixture.ledsPath,
      launch: .rawLastArgument([0xEF, 0xBB, 0xBF] + Array("SOS".utf8)))
    child.closeInput()
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardOutput == "... --- ...\n", "\(outcome)")
    // After a mark, a bad byte's column counts from the first character after it.
    let bad = try MorsetorchProcess(
      ["encode"], ledsDirectory: fixture.ledsPath,
      launch: .rawLastArgument([0xEF, 0xBB, 0xBF, 0x41, 0xFF]))
    bad.closeInput()
    let refused = try bad.wait()
    #expect(refused.exitStatus == 65, "\(refused)")
    #expect(refused.standardError.contains("byte 0xFF at column 2"), "\(refused)")
  }

  @Test func emptyTextIsAUsageError() throws {
    let fixture = try timerFixture()
    let outcome = try runMorsetorch("send", "--led", flash, " ", in: fixture)
    #expect(outcome.exitStatus == 64, "\(outcome)")
    #expect(outcome.standardError.contains("empty"), "\(outcome)")
  }

  @Test func skipUnknownSendsTheRestWithAWarning() throws {
    let fixture = try timerFixture()
    let outcome = try runMorsetorch(
      "send", "--led", flash, "--unit", "1", "--skip-unknown", "a€b", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    #expect(outcome.standardError.contains("warning"), "\(outcome)")
    #expect(outcome.standardError.contains("U+20AC"), "\(outcome)")
    try expectTimerRestored(fixture)
  }
}
