import Foundation
import Glibc
import MorseTestSupport
import Testing

extension CommandProcessTests {
  @Test func listShowsEveryLEDSortedWithItsState() throws {
    let fixture = try TemporaryLEDDirectory()
    try fixture.addLED(flash, maxBrightness: 255, brightness: 0, trigger: "none [timer] heartbeat")
    try fixture.addLED(
      "input3::capslock", maxBrightness: 1, brightness: 1, trigger: "none [kbd-capslock]")
    try fixture.addLED("a:red:status", maxBrightness: 1, brightness: 0, trigger: nil)
    // Not LEDs: a stray file and a dangling symlink.
    try Data().write(to: URL(fileURLWithPath: fixture.ledsPath + "/README"))
    try FileManager.default.createSymbolicLink(
      atPath: fixture.ledsPath + "/gone", withDestinationPath: fixture.root + "/nowhere")
    let outcome = try runMorsetorch("list", in: fixture)
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
    let rows = lines.map { $0.split(separator: " ").map(String.init) }
    #expect(
      rows == [
        ["NAME", "MAX", "TRIGGER", "BRIGHTNESS", "WRITABLE"],
        // No trigger file: nothing to take away, and `send` works with brightness alone.
        ["a:red:status", "1", "?", "0", "yes"],
        ["input3::capslock", "1", "kbd-capslock", "1", "yes"],
        [flash, "255", "timer", "0", "yes"],
      ], "\(outcome)")
    // The columns line up under the header.
    for column in ["MAX", "TRIGGER", "BRIGHTNESS", "WRITABLE"] {
      let offset = lines.first?.range(of: column)?.lowerBound.utf16Offset(in: lines[0])
      for (line, row) in zip(lines.dropFirst(), rows.dropFirst()) {
        let value = row[rows[0].firstIndex(of: column) ?? 0]
        let start = line.index(line.startIndex, offsetBy: offset ?? 0)
        #expect(line[start...].hasPrefix(value), "\(column) in \(line.debugDescription)")
      }
    }
  }

  @Test(.enabled(if: MorsetorchProcess.canRunUnprivileged, "needs setpriv(1) when run as root"))
  func listSaysWhenTheLEDIsNotWritable() throws {
    let fixture = try timerFixture()
    if getuid() != 0 { try fixture.setPermissions(0o444, of: "brightness", of: flash) }
    let child = try MorsetorchProcess(
      ["list"], ledsDirectory: fixture.ledsPath, launch: .unprivileged)
    child.closeInput()
    let outcome = try child.wait()
    #expect(outcome.exitStatus == 0, "\(outcome)")
    let row = outcome.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
    #expect(row.hasPrefix(flash), "\(outcome)")
    // Everything send would write, the timer's settings (to put them back) included.
    #expect(row.hasSuffix("no (brightness, trigger, delay_on, delay_off)"), "\(outcome)")
  }

  @Test func listWithoutClassDirectory() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try MorsetorchProcess.run(["list"], ledsDirectory: fixture.root + "/missing")
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardOutput.isEmpty)
    #expect(outcome.standardError.contains("no LED class directory"), "\(outcome)")
    // A new user with no LED learns how to try the tool all the same.
    #expect(outcome.standardError.contains("morsetorch send --preview SOS"), "\(outcome)")
    #expect(outcome.standardError.contains("morsetorch send --dry-run SOS"), "\(outcome)")
  }

  @Test func listOfAnEmptyClassDirectory() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("list", in: fixture)
    // Nothing to use, as with no class directory (and `list --gpio` with no chip).
    #expect(outcome.exitStatus == 69, "\(outcome)")
    #expect(outcome.standardOutput.isEmpty)
    #expect(outcome.standardError.contains("no LEDs"), "\(outcome)")
    #expect(outcome.standardError.contains("--preview"), "\(outcome)")
  }

  @Test func listTakesNoOperands() throws {
    let fixture = try TemporaryLEDDirectory()
    let outcome = try runMorsetorch("list", "white:flash", in: fixture)
    #expect(outcome.exitStatus == 64, "\(outcome)")
  }
}
