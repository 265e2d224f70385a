import MorseTestSupport
import Testing

/// Text as programs print it, streamed into `send`: a journal of a booted Debian has colour
/// sequences and characters with no Morse, and a stream must go on to its end.
@Suite("send, streaming real log text, as a process")
struct RealTextStreamTests {
  /// Lines as `journalctl --no-pager` prints them on a booted bookworm: systemd's messages
  /// with their colours, arrows, typographic quotes and dashes, an accented name, a degree.
  static let journal = [
    "Nov 27 00:01:02 host systemd[1]: \u{1B}[0;1;39mStarting\u{1B}[0m "
      + "\u{1B}[0;1;39msystemd-journald.service\u{1B}[0m - Journal Service...",
    "Nov 27 00:01:02 host systemd[1]: \u{1B}[0;32m  OK  \u{1B}[0m] Started Journal Service.",
    "Nov 27 00:01:03 host kernel: ACPI: \\_SB_.PCI0 → “enabled” — 2 ports…",
    "Nov 27 00:01:03 host systemd[1]: \u{1B}[0;1;31mFAILED\u{1B}[0m to start «Zoë's» unit.",
    "Nov 27 00:01:04 host thermald[88]: CPU at 45 °C → ok",
    "Nov 27 00:01:05 host systemd[1]: Reached target Graphical Interface.",
  ].joined(separator: "\n") + "\n"

  @Test func aJournalStreamsToItsEndWithOneWarningForEachCharacterWithNoMorse() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      ["send", "--dry-run", "--unit", "1"], ledsDirectory: fixture.ledsPath,
      input: Self.journal)
    // Before: exit 65 on the first escape character; the lines after it were never sent.
    #expect(outcome.exitStatus == 0, "\(outcome)")
    // Every line sent: five gaps between six lines.
    let lineGaps = outcome.standardOutput.split(separator: "\n").filter {
      $0.hasSuffix("(word gap, next line)")
    }
    #expect(lineGaps.count == 5, "\(outcome)")
    // No escape sequence was sent as text: `[0;1;39m` would send its figures.
    #expect(!outcome.standardOutput.contains("; "), "\(outcome)")
    let warnings = outcome.standardError.split(separator: "\n")
    // The degree sign is sent, as DEG: only the arrow has no Morse.
    #expect(warnings.count == 1, "\(outcome)")
    #expect(warnings.filter { $0.contains("'→' (U+2192)") }.count == 1, "\(outcome)")
    #expect(outcome.standardOutput.contains("D -.."), "\(outcome)")
  }

  @Test func textGivenAsAnArgumentIsStillRefusedWhole() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(
      ["send", "--dry-run", "CPU → ok"], ledsDirectory: fixture.ledsPath)
    #expect(outcome.exitStatus == 65, "\(outcome)")
    #expect(outcome.standardOutput.isEmpty, "\(outcome)")
    #expect(outcome.standardError.contains("'→' (U+2192) at line 1, column 5"), "\(outcome)")
  }
}
